import SyncSupport

/// An HTTP proxy's host and port, read from `proxy = "http://proxy.corp:3128"` or from `HTTPS_PROXY`.
///
/// Only `http://` proxies are read: AsyncHTTPClient speaks plain HTTP to the proxy and tunnels every request through
/// `CONNECT` (an `https://` proxy, or SOCKS with credentials, it cannot speak). A hand-written reader rather than
/// Foundation's URL: it takes what curl takes from the environment (no scheme, no port) and refuses the rest in one
/// sentence that never quotes the value, which may hold a password.
package struct ProxyAddress: Sendable, Hashable {
    /// The host name or IP address, without the brackets of an IPv6 literal.
    package var host: String
    /// 1...65535.
    package var port: Int
    /// `user:password@` of a proxy URL from the environment, percent-decoded: curl takes it as basic credentials.
    package var username: String?
    package var password: String?

    /// The port of a proxy URL from the environment without one: curl's default.
    static let environmentDefaultPort = 1080

    /// Reads a proxy URL.
    ///
    /// - Parameters:
    ///   - text: The URL: `http://host:port`, with an optional trailing `/`.
    ///   - strict: `proxy` in syncd.toml: the scheme and the port are required and credentials refused (they belong
    ///     in `proxy_auth`). Otherwise (the environment, as curl reads it): no scheme is `http://`, no port is 1080,
    ///     and `user:password@` is taken.
    /// - Returns: The address, or the reason it is not one, as a clause (`is not an http:// URL`).
    package static func parse(_ text: String, strict: Bool) -> Result<ProxyAddress, ProxyAddressError> {
        var rest = Substring(text)
        if let range = rest.firstRange(of: "://") {
            guard rest[..<range.lowerBound].lowercased() == "http" else { return .failure(.scheme) }
            rest = rest[range.upperBound...]
        } else if strict {
            return .failure(.scheme)
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else { return .failure(.path) }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            guard !strict else { return .failure(.credentials) }
            let userinfo = rest[..<at]
            let colon = userinfo.firstIndex(of: ":") ?? userinfo.endIndex
            username = PercentDecoding.decode(userinfo[..<colon], plusIsSpace: false)
            if colon < userinfo.endIndex {
                password = PercentDecoding.decode(userinfo[userinfo.index(after: colon)...], plusIsSpace: false)
            }
            rest = rest[rest.index(after: at)...]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(.host) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return .failure(.host) }
            if !after.isEmpty { portText = after.dropFirst() }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return .failure(.host)
            }
        } else {
            let colon = rest.firstIndex(of: ":") ?? rest.endIndex
            host = rest[..<colon]
            if colon < rest.endIndex { portText = rest[rest.index(after: colon)...] }
            guard !host.isEmpty,
                host.unicodeScalars.allSatisfy({
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0))
                })
            else { return .failure(.host) }
        }
        let port: Int
        if let portText {
            guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCIIDigitCharacter),
                let value = Int(portText), (1...65_535).contains(value)
            else { return .failure(.port) }
            port = value
        } else {
            guard !strict else { return .failure(.port) }
            port = environmentDefaultPort
        }
        return .success(ProxyAddress(host: host.lowercased(), port: port, username: username, password: password))
    }
}

/// Why a proxy URL was refused, as a clause that follows its name (`proxy`, `HTTPS_PROXY`).
package enum ProxyAddressError: Error, Sendable, Hashable {
    case scheme
    case path
    case credentials
    case host
    case port

    package var clause: String {
        switch self {
        case .scheme:
            "must be an http:// URL such as \"http://proxy.corp:3128\" (https:// and SOCKS proxies are not supported)"
        case .path: "must be a proxy's http://host:port, without a path or query"
        case .credentials: "must not hold credentials: put them in proxy_auth, from a secret source"
        case .host: "has no valid host"
        case .port: "needs a port from 1 to 65535, such as \"http://proxy.corp:3128\""
        }
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
