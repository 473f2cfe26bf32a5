internal import FoundationEssentials

/// The rule for an endpoint's `url`, one place for the TOML file and for endpoints built in Swift (`SyncEndpoint`),
/// so the two cannot drift: an absolute `http://` or `https://` URL with a host, or a `file://` URL of an absolute
/// path, without white space or control characters (which would split or end a request line).
package enum URLRules {
    /// What a URL must be, as a clause after the key. The URL itself is never quoted: it may carry a key in its query.
    static let expected = "url must be an absolute http://, https:// or file:// URL"

    /// Whether `text` can be an endpoint's URL.
    package static func isValid(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true })
        else { return false }
        let host = url.host ?? ""
        return switch scheme {
        case "http", "https": !host.isEmpty
        case "file": (host.isEmpty || host == "localhost") && url.path.hasPrefix("/") && url.path.count > 1
        default: false
        }
    }
}
