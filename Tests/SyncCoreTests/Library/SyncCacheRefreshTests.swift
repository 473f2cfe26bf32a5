import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore

/// ``SyncCache/refresh(_:olderThan:within:)`` against a loopback upstream that holds its answer while the test
/// looks: readers asking at once share one run, a young copy asks nothing, and without a schedule the cache syncs
/// the endpoint itself.
@Suite("library: read-through freshness (SyncCache.refresh)")
struct SyncCacheRefreshTests {
    /// An upstream of `/users` that counts its requests and holds them while ``hold`` is on.
    final class Gate: Sendable {
        private let count = Mutex(0)
        let gate = RequestGate()

        var requests: Int { count.withLock { $0 } }

        func hold() { gate.hold() }

        func release() { gate.release() }

        func handle(_ request: UpstreamRequest) async -> UpstreamResponse {
            let number = count.withLock { count in
                count += 1
                return count
            }
            await gate.pass()
            return .json(Array(#"[{"id": 1, "n": \#(number)}]"#.utf8))
        }
    }

    static func configuration(_ baseURL: String) throws -> SyncConfiguration {
        var users = SyncEndpoint(
            name: "users", url: baseURL + "/users", records: "$", primaryKey: ["id"],
            columns: [.init("id", type: .integer)], interval: .seconds(3600), jitter: 0)
        users.retries = 0
        return try SyncConfiguration(endpoints: [users])
    }

    @Test("twenty readers of an old copy share the one run the schedule makes; a young copy asks nothing")
    func coalesced() async throws {
        let gate = Gate()
        let server = try await LoopbackHTTPServer.start { await gate.handle($0) }
        let files = try TemporaryDirectory()
        let cache = try SyncCache(path: files.file("cache.db"), configuration: try Self.configuration(server.baseURL))
        let (reports, continuation) = AsyncStream<SyncSummary>.makeStream()
        let running = Task { try await cache.run(onSync: { continuation.yield($0) }) }
        var summaries = reports.makeAsyncIterator()
        _ = await summaries.next()
        #expect(gate.requests == 1)
        #expect(try await cache.refresh("users", olderThan: .seconds(3600)) == .fresh)
        #expect(gate.requests == 1)

        gate.hold()
        let outcomes = try await withThrowingTaskGroup(of: SyncCache.Refresh.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.refresh("users", olderThan: .zero) } }
            // Every reader waits on the run before it may end: none can come after it.
            while cache.reports.count(of: "users") < 20 { try await Task.sleep(for: .milliseconds(5)) }
            gate.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: .synced, count: 20))
        #expect(gate.requests == 2, "one request for twenty readers")
        running.cancel()
        _ = try? await running.value
        try await cache.shutdown()
        try await server.shutdown()
    }

    @Test("without a schedule running, the cache syncs the endpoint itself; an unknown one throws")
    func withoutSchedule() async throws {
        let gate = Gate()
        let server = try await LoopbackHTTPServer.start { await gate.handle($0) }
        let files = try TemporaryDirectory()
        let cache = try SyncCache(path: files.file("cache.db"), configuration: try Self.configuration(server.baseURL))
        #expect(try await cache.refresh("users", olderThan: .seconds(60)) == .synced)
        #expect(try await cache.refresh("users", olderThan: .seconds(60)) == .fresh)
        #expect(gate.requests == 1)
        await #expect(throws: SyncError.unknownEndpoint) { try await cache.refresh("nope", olderThan: .zero) }
        try await server.shutdown()
        let offline = try await cache.refresh("users", olderThan: .zero)
        guard case .stale(let reason) = offline else {
            Issue.record("\(offline)")
            return
        }
        #expect(reason.hasPrefix("the sync failed: "), "\(reason)")
        try await cache.shutdown()
    }
}
