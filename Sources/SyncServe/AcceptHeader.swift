internal import SyncCore
import SyncSupport

/// The `Accept` of a request to a route that answers people and programs (`GET /`): whether the client asks for
/// JSON rather than a page. Also the `A` parser of the `headers` fuzz target (Fuzz/).
package enum AcceptHeader {
    /// Whether a request's `Accept` asks for JSON rather than a page: it names `application/json` (or a `+json`
    /// type) and not `text/html`. A browser (`text/html`, `*/*`) and a request without `Accept` get the page.
    package static func wantsJSON(_ accept: String?) -> Bool {
        guard let accept else { return false }
        var json = false
        var html = false
        for item in accept.split(separator: ",") {
            let parameters = item.split(separator: ";")
            guard let first = parameters.first else { continue }
            let type = first.trimmingASCIISpaces.lowercased()
            // `q=0` means "not this one" (RFC 9110 §12.4.2).
            let refused = parameters.dropFirst().contains { parameter in
                let text = parameter.trimmingASCIISpaces.lowercased()
                return text.hasPrefix("q=") && Double(text.dropFirst(2)) == 0
            }
            guard !refused else { continue }
            if type == "text/html" || type == "application/xhtml+xml" {
                html = true
            } else if type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json")) {
                json = true
            }
        }
        return json && !html
    }
}
