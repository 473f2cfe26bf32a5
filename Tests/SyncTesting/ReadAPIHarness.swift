import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
package import Prometheus
import ServiceLifecycle
package import SyncCore
package import SyncSQLite
package import SyncServe

/// The read API of a ``SyncFixture``'s database, served on 127.0.0.1 with an ephemeral port for the length of
/// `body`, its clock the fixture's.
package struct ReadAPIHarness {
    package let baseURL: String
    /// The cache the API serves, which a test may reload as SIGHUP does.
    package let cache: SyncCache
    package let model: ReadModel
    package let registry: PrometheusCollectorRegistry
    /// The sync metrics `/metrics` appends.
    package let syncMetrics: SyncMetrics
    /// How many answers the event loop's fast path sent rather than the router.
    package let fastPathAnswers: FastPathTally
    /// The bearer token, which a test may rotate as a reload does.
    package let token: ReadToken?

    package static func with(
        _ fixture: SyncFixture, token: String? = nil, listen: SyncConfiguration.Server.Listen? = nil,
        pool: ReadConnectionPool? = nil, fastPath: Bool = true, limits: ConnectionLimits = .default,
        maxConnections: Int = SyncConfiguration.Server.defaultMaxConnections,
        maxStreams: Int = SyncConfiguration.Server.defaultMaxStreams, heartbeat: Duration = .seconds(15),
        _ body: (ReadAPIHarness) async throws -> Void
    ) async throws {
        let clock = fixture.clock
        let path = fixture.directory.file("cache.db")
        var configuration = fixture.configuration
        configuration.server.maxStreams = maxStreams
        let cache = SyncCache(
            reading: SQLiteReadStorage(pool: try pool ?? ReadConnectionPool(path: path)), of: .sqlite(path: path),
            configuration: configuration)
        let model = ReadModel(cache: cache, now: { clock.now }, heartbeat: heartbeat)
        let registry = PrometheusCollectorRegistry()
        let syncMetrics = SyncMetrics()
        let server = ReadServer(
            model: model, registry: registry, syncMetrics: syncMetrics, token: token, logger: Logger(label: "read-api"),
            fastPathEnabled: fastPath, limits: limits, maxConnections: maxConnections)
        let (addresses, continuation) = AsyncStream<ReadServer.BoundAddress>.makeStream()
        guard
            let service = try server.service(
                listen: listen ?? .tcp(host: "127.0.0.1", port: 0), onListening: { continuation.yield($0) })
        else { return }
        let group = ServiceGroup(services: [service], logger: Logger(label: "read-api"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = addresses.makeAsyncIterator()
            guard let address = await iterator.next() else { return }
            let baseURL: String
            switch address {
            case .tcp(let host, let port): baseURL = "http://\(host):\(port)"
            case .unix(let path):
                baseURL = "http+unix://\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path)"
            }
            do {
                try await body(
                    ReadAPIHarness(
                        baseURL: baseURL, cache: cache, model: model, registry: registry, syncMetrics: syncMetrics,
                        fastPathAnswers: server.fastPathAnswers, token: server.token))
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    package struct Answer {
        package var status: Int
        package var headers: [String: String]
        package var body: String

        package func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// A request through AsyncHTTPClient, as any HTTP client would send it.
    package func get(_ path: String, method: String = "GET", headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        var body = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name.lowercased()] = header.value }
        return Answer(
            status: Int(response.status.code), headers: fields, body: body.readString(length: body.readableBytes) ?? "")
    }
}
