import Foundation
import SampleUpstream
import SyncTesting

/// A loopback upstream of `items` in two pages of two (`startAt`/`maxResults`, with a `total` of 4) that holds its
/// second page until the test opens the gate: while it waits, the sync is running with its first page counted, and
/// the test looks at what syncd shows of it. Nothing waits on time: the test awaits ``secondPageAsked()`` and calls
/// ``open()``.
final class GatedUpstream: Sendable {
    private let gate = RequestGate(holding: true)
    private let asked: AsyncStream<Void>
    private let askedContinuation: AsyncStream<Void>.Continuation

    init() {
        (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// A configuration of the endpoint `items`, for an upstream at `baseURL`, with the read API on an ephemeral port.
    static func toml(_ baseURL: String) -> String {
        """
        database = "cache.db"
        server = { listen = "127.0.0.1:0" }

        [[endpoint]]
        name = "items"
        url = "\(baseURL)/items"
        records = "values"
        primary_key = ["id"]
        pagination = { type = "offset", param = "startAt", limit_param = "maxResults", limit = 2, total_path = "total" }
        columns = { id = { path = "id", type = "integer" } }
        """
    }

    /// Serves a gated upstream on 127.0.0.1 (its gate open from the start with `open`) and a workspace configured
    /// for it, for the length of `body`. The gate opens when `body` ends, however it ends: the server never holds a
    /// page past the test.
    static func withWorkspace(
        open: Bool = false, _ body: (GatedUpstream, CLITests.Workspace) async throws -> Void
    ) async throws {
        let upstream = GatedUpstream()
        if open { upstream.open() }
        let server = try await LoopbackHTTPServer.start { await upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: toml(server.baseURL))
        defer { workspace.remove() }
        do {
            try await body(upstream, workspace)
        } catch {
            upstream.open()
            try? await server.shutdown()  // best effort: the body's error is the one to report
            throw error
        }
        upstream.open()
        try await server.shutdown()
    }

    func handle(_ request: UpstreamRequest) async -> UpstreamResponse {
        let start = Int(request.query["startAt"] ?? "0") ?? 0
        if start > 0 {
            askedContinuation.yield()
            await gate.pass()
        }
        let ids = [start + 1, start + 2]
        let body = #"{"total": 4, "values": ["# + ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]}"
        return .json(Array(body.utf8))
    }

    /// Returns once the second page was asked for (and is held).
    func secondPageAsked() async {
        var iterator = asked.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets the second page (and every later request) through.
    func open() {
        gate.release()
    }
}
