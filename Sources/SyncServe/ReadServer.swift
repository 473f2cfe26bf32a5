internal import CoreMetrics
internal import HTTPTypes
package import Hummingbird
package import Logging
internal import NIOCore
package import Prometheus
package import ServiceLifecycle
package import SyncCore
import SyncSupport

/// The local HTTP read API (DESIGN.md › Read API) on Hummingbird: routes, problem answers, the bearer token,
/// request metrics and `/metrics`.
///
/// ```swift
/// let server = ReadServer(model: model, registry: registry, token: nil, logger: logger)
/// if let service = try server.service(listen: .tcp(host: "127.0.0.1", port: 8787), onListening: { address in … }) {
///     services.append(service)   // run in the daemon's ServiceGroup
/// }
/// ```
package struct ReadServer: Sendable {
    package var model: ReadModel
    /// What `/metrics` prints; request counters are recorded into it too.
    package var registry: PrometheusCollectorRegistry
    /// When set, every request needs `Authorization: Bearer <token>`; a reload may replace it
    /// (``ReadToken/replace(with:)``).
    package let token: ReadToken?
    package var logger: Logger
    /// Each endpoint's sync metrics, appended to what `/metrics` prints.
    package var syncMetrics: SyncMetrics?
    /// Whether hot reads are answered on the event loop (``ReadFastPath``); off, the router answers every request
    /// (the tests compare the two).
    package var fastPathEnabled: Bool

    /// The deadlines of each connection (a head, an idle connection, a client that reads nothing).
    package var limits: ConnectionLimits
    /// The most connections open at once: past it, new ones wait in the listen backlog until one closes.
    package var maxConnections: Int

    /// How many answers the fast path sent (the tests check that it, not the router, answered).
    package let fastPathAnswers = FastPathTally()

    /// The `Server` header of every answer.
    static let serverName = "syncd"

    package init(
        model: ReadModel, registry: PrometheusCollectorRegistry, syncMetrics: SyncMetrics? = nil, token: String?,
        logger: Logger, fastPathEnabled: Bool = true, limits: ConnectionLimits = .default,
        maxConnections: Int = SyncConfiguration.Server.defaultMaxConnections
    ) {
        self.limits = limits
        self.maxConnections = maxConnections
        self.model = model
        self.registry = registry
        self.syncMetrics = syncMetrics
        self.token = token.map(ReadToken.init)
        self.logger = logger
        self.fastPathEnabled = fastPathEnabled
    }

    /// Where the server listens once it runs: `127.0.0.1:8787` or `unix:/run/syncd/read.sock`.
    package enum BoundAddress: Sendable, Hashable, CustomStringConvertible {
        case tcp(host: String, port: Int)
        case unix(path: String)

        package var description: String {
            switch self {
            case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): "unix:\(path)"
            }
        }
    }

    /// The server as a service, or `nil` when `listen` is `off`.
    ///
    /// - Parameter onListening: Called once the socket is bound, with its address (the port chosen, for port 0).
    /// - Throws: ``UnixSocketFile/Problem`` when a `unix:` socket file is another live process's.
    package func service(
        listen: SyncConfiguration.Server.Listen, onListening: @escaping @Sendable (BoundAddress) async -> Void
    ) throws -> (any Service)? {
        let address: BindAddress
        // Without a token, Host is checked against a TCP address: the DNS rebinding defence.
        let allowedHosts: AllowedHosts? =
            switch listen {
            case .tcp(let host, _) where token == nil: AllowedHosts(host: host)
            default: nil
            }
        switch listen {
        case .off: return nil
        case .tcp(let host, let port):
            address = .hostname(host, port: port)
        case .unix(let path):
            try UnixSocketFile.prepare(at: path)
            address = .unixDomainSocket(path: path)
        }
        let counters = RequestCounters(factory: PrometheusMetricsFactory(registry: registry))
        // RFC 9112's Host rule names an authority; a Unix socket has none.
        let requiresHost = if case .tcp = listen { true } else { false }
        let fastPath = ReadFastPath(
            model: model, counters: counters, token: token, allowedHosts: allowedHosts,
            tally: fastPathAnswers)
        let fastPathEnabled = self.fastPathEnabled
        let limits = self.limits
        let logger = self.logger
        return Application(
            router: makeRouter(allowedHosts: allowedHosts, counters: counters),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ReadPipelineInstaller(
                            fastPath: fastPathEnabled ? fastPath : nil, serverName: Self.serverName, limits: limits,
                            counters: counters, requiresHost: requiresHost, logger: logger)
                    ])),
            configuration: ApplicationConfiguration(
                address: address, serverName: Self.serverName,
                availableConnectionsDelegate: Self.connectionCap(maxConnections, logger: logger)),
            onServerRunning: { channel in
                switch listen {
                case .unix(let path):
                    // The bind gave the file the umask's mode: ours is set before anyone is told it listens.
                    if !UnixSocketFile.setMode(at: path) {
                        logger.warning(
                            "Cannot set the read API socket's mode", metadata: ["address": "unix:\(path)"])
                    }
                    await onListening(.unix(path: path))
                case .tcp(let host, let port):
                    let bound = channel.localAddress?.port ?? port
                    allowedHosts?.bound(port: bound)
                    await onListening(.tcp(host: host, port: bound))
                case .off:
                    break
                }
            },
            logger: logger)
    }

    /// The routes, behind the problem middleware, the Host check when `allowedHosts` is given, and, with a token,
    /// the bearer check.
    package func makeRouter() -> Router<BasicRequestContext> {
        makeRouter(allowedHosts: nil, counters: RequestCounters(factory: PrometheusMetricsFactory(registry: registry)))
    }

    func makeRouter(allowedHosts: AllowedHosts?, counters: RequestCounters) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ReadAPIMiddleware(counters: counters))
        if let allowedHosts { router.add(middleware: HostCheckMiddleware(allowed: allowedHosts)) }
        if let token { router.add(middleware: BearerTokenMiddleware(token: token)) }
        let model = self.model
        let registry = self.registry
        let syncMetrics = self.syncMetrics
        // The status page goes through the router, never the fast path: the token and Host checks apply to it.
        router.get("/") { request, _ in try await model.statusPage(request: request) }
        router.get("/healthz") { _, _ in try await model.health() }
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            var body = ByteBuffer(bytes: registry.emitToBuffer())
            if let syncMetrics { body.writeString(syncMetrics.text()) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        let bearer = token != nil
        router.get("/openapi.json") { _, _ in model.openAPI(bearer: bearer) }
        router.get("/v1/endpoints") { _, _ in try await model.endpointsList() }
        router.get("/v1/endpoints/:name/records") { request, context in
            let name = try Self.parameter("name", context)
            return try await model.revalidated(name, request) { () async throws(ReadAPIError) in
                try await model.records(name, request: request)
            }
        }
        router.get("/v1/endpoints/:name/records/:id") { request, context in
            let (name, id) = (try Self.parameter("name", context), try Self.parameter("id", context))
            return try await model.revalidated(name, request) { () async throws(ReadAPIError) in
                try await model.record(name, id: id, request: request)
            }
        }
        router.get("/v1/endpoints/:name/changes") { request, context in
            let name = try Self.parameter("name", context)
            var response = try await model.revalidated(name, request) { () async throws(ReadAPIError) in
                try await model.changes(name, request: request)
            }
            // An event's id sent back as Last-Event-ID takes the place of `after`: a cache in front keys on it too.
            response.headers[.vary] = "Last-Event-ID"
            return response
        }
        router.get("/v1/endpoints/:name/drift") { _, context in
            try await model.drift(try Self.parameter("name", context))
        }
        router.get("/v1/endpoints/:name/document") { request, context in
            let name = try Self.parameter("name", context)
            var response = try await model.revalidated(name, request) { () async throws(ReadAPIError) in
                try await model.document(name, request: request)
            }
            // A document is served as the upstream typed it (text/html, say): never sniffed, never run as a page
            // of this origin.
            response.headers[.xContentTypeOptions] = "nosniff"
            response.headers[.contentSecurityPolicy] = "sandbox"
            return response
        }
        router.get("/rest/:name") { request, context in
            let name = try Self.parameter("name", context)
            return try await model.revalidated(name, request) { () async throws(ReadAPIError) in
                try await model.records(name, request: request)
            }
        }
        // Signed by the upstream, not by the token: the bearer and Host checks pass it by (``isHook(_:)``).
        router.post("/v1/hooks/:name") { request, context in
            try await model.hook(try Self.parameter("name", context), request: request, logger: context.logger)
        }
        return router
    }

    /// Whether `request` is an upstream's webhook (`POST /v1/hooks/{name}`), which its signature authenticates: the
    /// read API's token is the readers', which an upstream does not have, and a signed hook is no rebinding attack.
    static func isHook(_ request: Request) -> Bool {
        request.method == .post && request.uri.path.hasPrefix("/v1/hooks/")
    }

    /// A path parameter, percent-decoded.
    private static func parameter(_ name: String, _ context: BasicRequestContext) throws(ReadAPIError) -> String {
        guard let value = context.parameters.get(name) else {
            throw .badParameter(name, "The path has no \(name).")
        }
        return QueryString.decode(Substring(value), plusIsSpace: false)
    }
}
