internal import SyncCore
import SyncSupport

/// The `Accept` of a request to a route that answers people and programs (`GET /`): whether the client asks for
/// JSON rather than a page. Also the `A` parser of the `headers` fuzz target (Fuzz/).
package enum AcceptHeader {
    /// Whether a request's `Accept` asks for JSON rather than a page: it names `application/json` (or a `+json`
    /// type) and not `text/html`. A browser (`text/html`, `*/*`) and a request without `Accept` get the page.
    package static func wantsJSON(_ accept: String?) -> Bool {
        var json = false
        var html = false
        for type in accepted(accept) {
            if type == "text/html" || type == "application/xhtml+xml" {
                html = true
            } else if type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json")) {
                json = true
            }
        }
        return json && !html
    }

    /// Whether a request's `Accept` names `text/event-stream` (not refused with `q=0`): the change feed is then
    /// sent live, as Server-Sent Events, as a browser's `EventSource` asks for it.
    package static func wantsEventStream(_ accept: String?) -> Bool {
        accepted(accept).contains("text/event-stream")
    }

    /// The media types `accept` names, lowercased, less those it refuses with `q=0` (RFC 9110 §12.4.2).
    private static func accepted(_ accept: String?) -> [String] {
        guard let accept else { return [] }
        return accept.split(separator: ",").compactMap { item in
            let parameters = item.split(separator: ";")
            guard let first = parameters.first else { return nil }
            let refused = parameters.dropFirst().contains { parameter in
                let text = parameter.trimmingASCIISpaces.lowercased()
                return text.hasPrefix("q=") && Double(text.dropFirst(2)) == 0
            }
            return refused ? nil : first.trimmingASCIISpaces.lowercased()
        }
    }
}
