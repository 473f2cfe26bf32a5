internal import SyncCore
import SyncSupport

/// A request as ``LoopbackHTTPServer`` received it, handed to the handler that answers it.
///
/// The body, if any, is kept up to 1 MiB: a GraphQL query or a search's filter.
package struct UpstreamRequest: Sendable {
    /// The method as sent, e.g. `GET` or `HEAD`.
    package var method: String
    /// The request target as received: path and query, still percent-encoded.
    package var uri: String
    /// The part of ``uri`` before `?`, still percent-encoded.
    package var path: String
    /// The query items, percent- and `+`-decoded; when a name repeats, the last value wins.
    package var query: [String: String]
    /// The header fields in the order received.
    package var headers: [(name: String, value: String)]
    /// The body's first 1 MiB; empty when there was none.
    package var body: [UInt8] = []

    /// A request as if it had arrived with this method, target and headers; ``path`` and ``query`` come from `uri`.
    package init(method: String = "GET", uri: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.uri = uri
        let target = uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = parts.first.map(String.init) ?? ""
        self.query = parts.count > 1 ? Self.decodeQuery(parts[1]) : [:]
        self.headers = headers
    }

    /// The value of the first header field with this name, compared case-insensitively; `nil` if there is none.
    package func header(_ name: String) -> String? {
        headers.first { Self.equalIgnoringASCIICase($0.name, name) }?.value
    }

    private static func decodeQuery(_ query: Substring) -> [String: String] {
        var items: [String: String] = [:]
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(pair[0])
            items[name] = pair.count > 1 ? PercentDecoding.decode(pair[1]) : ""
        }
        return items
    }

    private static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
