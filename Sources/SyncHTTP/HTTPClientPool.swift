internal import AsyncHTTPClient
internal import NIOCore
import SyncModel
internal import Synchronization

/// The HTTP clients of one ``HTTPTransport``: AsyncHTTPClient takes its proxy and TLS settings per client, so each
/// distinct proxy and ``TLSSettings`` a request asks for has a client of its own, made on first use and kept until
/// ``shutdown()``. Requests without settings of their own (and not sent through a proxy) share the first client.
///
/// A client's files and secrets (CA, client certificate and key, the proxy's password) are read when it is made: a
/// changed file is read by the next process.
final class HTTPClientPool: Sendable {
    /// What makes two requests need different clients: the proxy they go through, and their TLS settings.
    private struct Key: Hashable {
        var proxy: ProxyAddress?
        var proxyAuthorization: Credential?
        var tls: TLSSettings
    }

    private struct State {
        var clients: [Key: HTTPClient]
        var isShutDown = false
    }

    private let configuration: HTTPClient.Configuration
    private let group: any EventLoopGroup
    private let environment: [String: String]
    private let proxies: ProxyEnvironment
    private let state: Mutex<State>

    /// - Parameters:
    ///   - configuration: What every client shares (timeouts, redirects, decompression, tracing).
    ///   - environment: Where the proxy variables, `$CREDENTIALS_DIRECTORY` and the `*_env` secrets are read.
    init(configuration: HTTPClient.Configuration, group: any EventLoopGroup, environment: [String: String]) {
        self.configuration = configuration
        self.group = group
        self.environment = environment
        self.proxies = ProxyEnvironment(environment)
        let first = HTTPClient(eventLoopGroup: group, configuration: configuration)
        self.state = Mutex(State(clients: [Key(tls: TLSSettings()): first]))
    }

    /// The client for `request` to `host` over `scheme`: the request's proxy (or the environment's, which
    /// `NO_PROXY` may rule out for this host) and TLS settings.
    ///
    /// - Throws: ``FetchError`` in one sentence when the proxy is not usable or the TLS files cannot be read.
    func client(for request: FetchRequest, scheme: String, host: String) throws(FetchError) -> HTTPClient {
        var key = Key(tls: request.tls)
        switch request.proxy.choice {
        case .environment:
            key.proxy = try proxies.proxy(scheme: scheme, host: host)
        case .direct:
            break
        case .url(let text):
            guard case .success(let address) = ProxyAddress.parse(text, strict: true) else {
                throw .connection("the proxy is not an http://host:port URL")
            }
            (key.proxy, key.proxyAuthorization) = (address, request.proxy.authorization)
        }
        return try state.withLock { state throws(FetchError) in
            if let client = state.clients[key] { return client }
            guard !state.isShutDown else { throw .connection("the HTTP client is shut down") }
            let client = HTTPClient(eventLoopGroup: group, configuration: try makeConfiguration(for: key))
            state.clients[key] = client
            return client
        }
    }

    private func makeConfiguration(for key: Key) throws(FetchError) -> HTTPClient.Configuration {
        var configuration = self.configuration
        if !key.tls.isDefault {
            do {
                configuration.tlsConfiguration = try key.tls.makeClientConfiguration(environment: environment)
            } catch {
                throw .tls(error.sentence)
            }
        }
        if let proxy = key.proxy {
            var authorization: HTTPClient.Authorization?
            if let credential = key.proxyAuthorization, case .basic(let username, let secret) = credential.placement {
                do {
                    let password = try secret.source.resolve(environment: environment)
                    authorization = .basic(username: username, password: password)
                } catch {
                    throw .connection("proxy_auth: \(error)")
                }
            } else if let username = proxy.username {
                authorization = .basic(username: username, password: proxy.password ?? "")
            }
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        }
        return configuration
    }

    /// Every client made so far; none is made after.
    func shutdown() async throws {
        let clients = state.withLock { state in
            state.isShutDown = true
            return Array(state.clients.values)
        }
        var firstError: (any Error)?
        for client in clients {
            do {
                try await client.shutdown()
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Shuts down the clients of a pool dropped without ``shutdown()``: see ``HTTPTransport``'s deinit.
    deinit {
        for client in state.withLock({ Array($0.clients.values) }) {
            _ = client.shutdown()
        }
    }
}
