package import SyncModel

/// The proxy variables of a process's environment, read once, and the choice of a proxy for each request: see
/// ``HTTPProxy`` for the rules (curl's).
package struct ProxyEnvironment: Sendable {
    /// A proxy variable's name (for messages: never its value, which may hold a password) and value.
    private struct Variable: Sendable {
        var name: String
        var value: String
    }

    private let https: Variable?
    private let http: Variable?
    private let all: Variable?
    private let noProxy: NoProxyList

    package init(_ environment: [String: String]) {
        func variable(_ name: String) -> Variable? {
            for candidate in [name.lowercased(), name] {
                if let value = environment[candidate], !value.isEmpty { return Variable(name: candidate, value: value) }
            }
            return nil
        }
        https = variable("HTTPS_PROXY")
        http = variable("HTTP_PROXY")
        all = variable("ALL_PROXY")
        noProxy = NoProxyList(variable("NO_PROXY")?.value ?? "")
    }

    /// The proxy a request to `host` over `scheme` goes through; nil when none (no variable, or `NO_PROXY`).
    ///
    /// - Throws: ``FetchError`` naming the variable when its value is not a proxy URL.
    package func proxy(scheme: String, host: String) throws(FetchError) -> ProxyAddress? {
        guard let variable = (scheme == "https" ? https : http) ?? all, !noProxy.matches(host: host) else {
            return nil
        }
        switch ProxyAddress.parse(variable.value, strict: false) {
        case .success(let address): return address
        case .failure(let error): throw .connection("the proxy in \(variable.name) \(error.clause)")
        }
    }
}
