import Foundation
package import SampleUpstream
import Synchronization

/// A loopback upstream whose answers the test sets per path, and which records what it was asked.
package final class TestUpstream: Sendable {
    private let routes = Mutex<[String: UpstreamResponse]>([:])
    private let received = Mutex<[UpstreamRequest]>([])
    private let handlers = Mutex<[String: @Sendable (UpstreamRequest) -> UpstreamResponse]>([:])
    package let server: LoopbackHTTPServer

    private init(server: LoopbackHTTPServer) {
        self.server = server
    }

    package static func start() async throws -> TestUpstream {
        let box = RouteBox()
        let server = try await LoopbackHTTPServer.start(onEventLoop: true) { request in
            await box.handle(request)
        }
        let upstream = TestUpstream(server: server)
        box.upstream.withLock { $0 = upstream }
        return upstream
    }

    package func url(_ path: String) -> String { server.baseURL + path }

    /// Answers `path` with `response` from now on.
    package func set(_ path: String, _ response: UpstreamResponse) {
        routes.withLock { $0[path] = response }
    }

    /// Answers `path` with a JSON body and an ETag; a request carrying that ETag gets a 304.
    package func setJSON(_ path: String, _ json: String, etag: String? = nil) {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append((name: "ETag", value: etag)) }
        set(path, .json(Array(json.utf8), headers: headers))
    }

    /// Answers `path`, whatever the query, with what `handler` returns for each request, from now on.
    package func route(_ path: String, _ handler: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse) {
        handlers.withLock { $0[path] = handler }
    }

    package var requests: [UpstreamRequest] { received.withLock { $0 } }

    package func stop() async throws { try await server.shutdown() }

    fileprivate func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        received.withLock { $0.append(request) }
        if let handler = handlers.withLock({ $0[request.path] }) { return handler(request) }
        guard let response = routes.withLock({ $0[request.path] }) else {
            return .json(Array(#"{"error":"not found"}"#.utf8), status: 404)
        }
        if let etag = response.headers.first(where: { $0.name.lowercased() == "etag" })?.value,
            request.header("If-None-Match") == etag
        {
            // As RFC 9110 §15.4.5 asks: the fields a 200 would have sent that a cache updates from a 304.
            let kept = response.headers.filter { ["cache-control", "expires", "date"].contains($0.name.lowercased()) }
            return UpstreamResponse(status: 304, headers: [(name: "ETag", value: etag)] + kept)
        }
        return response
    }
}

/// Lets the server's handler reach the upstream object created after the server.
private final class RouteBox: Sendable {
    package let upstream = Mutex<TestUpstream?>(nil)

    package func handle(_ request: UpstreamRequest) async -> UpstreamResponse {
        guard let upstream = upstream.withLock({ $0 }) else { return UpstreamResponse(status: 503) }
        return upstream.answer(request)
    }
}

/// Runs `body` with a fresh upstream, stopping it afterwards whether `body` throws or not.
package func withTestUpstream<T>(_ body: (TestUpstream) async throws -> T) async throws -> T {
    let upstream = try await TestUpstream.start()
    let result: T
    do {
        result = try await body(upstream)
    } catch {
        try? await upstream.stop()  // the body's error is the one to report
        throw error
    }
    try await upstream.stop()
    return result
}
