#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `NO_PROXY`: the hosts that bypass the environment's proxy, matched as ``HTTPProxy`` documents (curl's rules,
/// CIDR ranges included).
package struct NoProxyList: Sendable, Hashable {
    private enum Entry: Sendable, Hashable {
        case everything
        /// A name in lower case, without leading or trailing dots.
        case domain(String)
        /// An address (4 or 16 bytes) and how many of its leading bits must match.
        case network([UInt8], bits: Int)
    }

    private let entries: [Entry]

    /// Reads the list; an entry that is none of the forms (`/99`, an empty name) matches nothing.
    package init(_ text: String) {
        entries = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap(Self.entry)
    }

    private static func entry(_ token: Substring) -> Entry? {
        if token == "*" { return .everything }
        var text = token
        if text.hasPrefix("[") {
            // [fd00::1]:8080 or [fd00::1]
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.count(where: { $0 == ":" }) == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]  // host:port — every port of the host matches
        }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        if let address = parts.first.flatMap({ Self.address(String($0)) }) {
            let width = address.count * 8
            guard parts.count == 2 else { return .network(address, bits: width) }
            guard let bits = Int(parts[1]), (0...width).contains(bits), parts[1].count <= 3 else { return nil }
            return .network(address, bits: bits)
        }
        let name = text.lowercased().trimming(".")
        guard !name.isEmpty, !name.contains("/") else { return nil }
        return .domain(name)
    }

    /// Whether `host` (a name, or an IP address without brackets) bypasses the proxy.
    package func matches(host: String) -> Bool {
        let name = host.lowercased().trimming(".")
        let address = Self.address(name)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let domain):
                return address == nil && (name == domain || name.hasSuffix("." + domain))
            case .network(let network, let bits):
                guard let address, address.count == network.count else { return false }
                return Self.prefix(of: address, bits: bits) == Self.prefix(of: network, bits: bits)
            }
        }
    }

    /// The bytes of an IPv4 or IPv6 address in text, nil for anything else.
    private static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    private static func prefix(of address: [UInt8], bits: Int) -> [UInt8] {
        address.enumerated().map { index, byte in
            let kept = min(max(bits - index * 8, 0), 8)
            return kept == 0 ? 0 : byte & ~UInt8(truncatingIfNeeded: 0xFF >> kept)
        }
    }
}

extension String {
    /// The string without `character` at either end.
    fileprivate func trimming(_ character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
