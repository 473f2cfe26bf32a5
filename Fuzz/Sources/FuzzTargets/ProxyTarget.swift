import Foundation
import SyncCore
import SyncHTTP

/// Proxy URLs (``ProxyAddress``, from `proxy` in syncd.toml and from `HTTPS_PROXY`), `NO_PROXY` lists
/// (``NoProxyList``) and the choice between them (``ProxyEnvironment``).
///
/// Input: a proxy URL, a NUL, a `NO_PROXY` list, a NUL, a host. A URL read has a non-empty lower-case host and a port
/// of 1 to 65535, and no credentials when read strictly (syncd.toml's); a refusal never quotes the URL's password. A
/// list holding `*` matches every host, and a match does not depend on the host's case. A proxy chosen for a host that
/// `NO_PROXY` names is a failure; a variable that is not a proxy URL is refused in a sentence that names the variable
/// and, beside the refusal's own words, not its password.
enum ProxyTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let parts = input.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let url = parts.first ?? ""
        let list = parts.count > 1 ? parts[1] : ""
        let host = parts.count > 2 ? parts[2] : "example.com"
        let password = Self.password(in: url)
        for strict in [true, false] {
            switch ProxyAddress.parse(url, strict: strict) {
            case .success(let address):
                try require(!address.host.isEmpty && address.host == address.host.lowercased(), "host \(address.host)")
                try require((1...65_535).contains(address.port), "port \(address.port)")
                try require(!strict || (address.username == nil && address.password == nil), "credentials kept")
            case .failure:
                break  // a clause of its own words (ProxyAddressError), whatever the URL held
            }
        }
        let noProxy = NoProxyList(list)
        let matches = noProxy.matches(host: host)
        try require(matches == noProxy.matches(host: host.uppercased()), "a match depends on case: \(host)")
        if list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).contains("*") {
            try require(matches, "* does not match \(host)")
        }
        let environment = ProxyEnvironment(["HTTPS_PROXY": url, "NO_PROXY": list])
        let chosen: Result<ProxyAddress?, FetchError>
        do throws(FetchError) {
            chosen = .success(try environment.proxy(scheme: "https", host: host))
        } catch {
            chosen = .failure(error)
        }
        switch chosen {
        case .success(let proxy):
            try require(proxy == nil || !url.isEmpty, "a proxy from an empty variable")
            if matches { try require(proxy == nil, "NO_PROXY names \(host), yet a proxy was chosen") }
        case .failure(let error):
            try require(error.description.contains("HTTPS_PROXY"), "the refusal does not name the variable")
            // The sentence's own words (its example URL) may hold the same characters by chance: they are left out.
            var said = error.description
            for clause in Self.clauses { said = said.replacingOccurrences(of: clause, with: "") }
            if let password { try require(!said.contains(password), "the refusal quotes the password") }
        }
    }

    static let clauses = [ProxyAddressError.scheme, .path, .credentials, .host, .port].map(\.clause)

    /// The password of `user:password@` in a URL, when it is long enough that a sentence would not hold it by chance.
    private static func password(in url: String) -> String? {
        guard let at = url.lastIndex(of: "@") else { return nil }
        let userinfo = url[..<at].split(separator: "/").last ?? ""
        guard let colon = userinfo.firstIndex(of: ":") else { return nil }
        let password = String(userinfo[userinfo.index(after: colon)...])
        return password.count >= 8 ? password : nil
    }
}
