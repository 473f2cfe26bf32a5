internal import Foundation

/// The URL work of pagination: resolving a next link, setting query parameters, comparing origins.
///
/// URLs are never put into messages or logs: they may carry a secret query parameter.
package enum PageURL {
    /// `reference` (a Link target or a URL from a body), made absolute against the URL of the page it came from.
    ///
    /// - Returns: an absolute http or https URL, or nil when the reference is not one.
    package static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = String(reference.trimmingASCIISpaces)
        guard !trimmed.isEmpty, let baseURL = URL(string: base),
            let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url.absoluteString
    }

    /// `url` with each parameter set to its value: an existing one of that name is replaced where it stands (a repeat
    /// of it is dropped), a new one is appended; other parameters stay as they were.
    ///
    /// Values are percent-encoded but for RFC 3986's unreserved characters, so `+`, `/`, `=` and `&` in a cursor
    /// reach the upstream as they were.
    package static func setting(_ parameters: [(name: String, value: String)], in url: String) -> String {
        var base = Substring(url)
        var fragment = Substring()
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var items: [Substring] = []
        if let question = base.firstIndex(of: "?") {
            items = base[base.index(after: question)...].split(separator: "&")
            base = base[..<question]
        }
        var query: [String] = []
        var pending = parameters
        for item in items {
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let name = PercentDecoding.decode(rawName)
            guard parameters.contains(where: { $0.name == name }) else {
                query.append(String(item))
                continue
            }
            // The first occurrence is replaced where it stands; any repeat is dropped.
            if let position = pending.firstIndex(where: { $0.name == name }) {
                let (name, value) = pending.remove(at: position)
                query.append(encode(name) + "=" + encode(value))
            }
        }
        for (name, value) in pending {
            query.append(encode(name) + "=" + encode(value))
        }
        return base + "?" + query.joined(separator: "&") + fragment
    }

    /// `url` without the query parameters of these names (compared after percent-decoding); the rest stays as it was.
    package static func removing(_ names: Set<String>, from url: String) -> String {
        var base = Substring(url)
        var fragment = Substring()
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        guard let question = base.firstIndex(of: "?") else { return url }
        let kept = base[base.index(after: question)...].split(separator: "&").filter { item in
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return !names.contains(PercentDecoding.decode(rawName))
        }
        let stem = base[..<question]
        return kept.isEmpty ? String(stem + fragment) : stem + "?" + kept.joined(separator: "&") + fragment
    }

    /// Whether two absolute URLs have the same scheme, host and port (RFC 6454), default ports included.
    package static func isSameOrigin(_ first: String, _ second: String) -> Bool {
        guard let first = URLComponents(string: first), let second = URLComponents(string: second) else {
            return false
        }
        func origin(_ url: URLComponents) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(first) == origin(second)
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
