import Foundation
import Logging
import PostgresNIO
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncPostgres
@testable import SyncSQLite
@testable import SyncSupport

/// The claims `syncd run` nodes take on endpoints of one PostgreSQL database: two ``PostgresLeases`` of one store
/// stand for two processes (each has a token of its own). Times are passed in, and a lease that has run out is
/// made so in the table, so nothing here waits for a clock.
@Suite("PostgresLeases: claims shared by nodes", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresLeasesTests {
    static let logger = Logger(label: "syncd.tests")
    static let now = 1_800_000_000.0

    struct Nodes {
        var url: String
        var store: PostgresStore
        var one: PostgresLeases
        var two: PostgresLeases
    }

    func nodes() async throws -> Nodes {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        let store = try await PostgresStore.open(try PostgresLocation(parsing: url), password: nil, logger: Self.logger)
        let storage = PostgresSyncStorage(store: store, spoolDirectory: NSTemporaryDirectory())
        let names = ["a", "b", "c"]
        try await storage.prepareTables(for: try names.map(Self.endpoint))
        // Their rows of syncd_endpoints, as their first runs leave them.
        for name in names {
            _ = try await storage.recordFailure(
                "first", outcome: .failed, run: SyncRun(endpoint: try Self.endpoint(name)),
                facts: RunFacts(startedAt: Self.now - 10, finishedAt: Self.now - 9))
        }
        return Nodes(
            url: url, store: store, one: PostgresLeases(store: store, node: "one", lease: 30),
            two: PostgresLeases(store: store, node: "two", lease: 30))
    }

    static func endpoint(_ name: String) throws -> EndpointConfiguration {
        EndpointConfiguration(
            name: try SQLIdentifier(validating: name), url: "http://127.0.0.1:1/\(name)", primaryKey: [0],
            columns: [ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer)])
    }

    @Test("an endpoint claimed by one node is refused to another while held, and says for how long")
    func heldIsRefused() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        let first = try await nodes.one.claim(["a", "b"], now: Self.now)
        #expect(first.claimed == ["a": 1, "b": 1])
        #expect(first.refused.isEmpty)
        let second = try await nodes.two.claim(["a", "b", "c"], now: Self.now)
        #expect(second.claimed == ["c": 1])
        for name in ["a", "b"] {
            guard case .held(let seconds) = second.refused[name] else {
                Issue.record("\(name): \(String(describing: second.refused[name]))")
                continue
            }
            #expect(seconds > 25 && seconds <= 30)
        }
    }

    @Test("handing back with the next due time and its reason: the others see that time, then claim it when it comes")
    func finishSharesTheSchedule() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a"], now: Self.now)
        try await finish(nodes.one, [("a", Self.now + 60)], reason: "max-age: fresh for 1m")
        let early = try await nodes.two.claim(["a"], now: Self.now + 1)
        #expect(early.claimed.isEmpty)
        #expect(early.refused["a"] == .notDue(until: Self.now + 60))
        let due = try await nodes.two.claim(["a"], now: Self.now + 60)
        #expect(due.claimed.keys.sorted() == ["a"])
        let rows = try await PostgresTestCluster.shared().query(
            nodes.url, "SELECT next_due_at, last_node, schedule_reason FROM syncd_endpoints WHERE name = 'a'")
        #expect(rows == [[Timestamp.format(Self.now + 60), "one", "max-age: fresh for 1m"]])
    }

    @Test("a webhook's request claims an endpoint the shared schedule has not made due, but not one another node holds")
    func requestOverridesTheSchedule() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a", "b"], now: Self.now)
        try await finish(nodes.one, [("a", Self.now + 3600)])
        let requested = try await nodes.two.claim(["a", "b", "c"], now: Self.now + 1, requested: ["a", "b"])
        // a: handed back, due in an hour, asked for: claimed. b: still held by node one: refused, as any run is.
        // c: due, not asked for: claimed as usual.
        #expect(requested.claimed.keys.sorted() == ["a", "c"])
        guard case .held = requested.refused["b"] else {
            Issue.record("b: \(String(describing: requested.refused["b"]))")
            return
        }
        try await finish(nodes.one, [("b", Self.now + 3600)])
        let unasked = try await nodes.one.claim(["b"], now: Self.now + 2)
        #expect(unasked.refused["b"] == .notDue(until: Self.now + 3600))
        #expect(try await nodes.one.claim(["b"], now: Self.now + 2, requested: ["b"]).claimed.keys.sorted() == ["b"])
    }

    @Test("a lease that ran out is taken by another node; its old holder can neither renew nor hand it back")
    func expiredLeaseMoves() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a"], now: Self.now)
        // Node one died: its lease runs out.
        _ = try await PostgresTestCluster.shared().query(
            nodes.url, "UPDATE syncd_leases SET expires_at = now() - interval '1 second'")
        #expect(try await nodes.two.claim(["a"], now: Self.now).claimed.keys.sorted() == ["a"])
        try await nodes.one.renew(["a"])
        try await finish(nodes.one, [("a", Self.now + 3600)])
        let rows = try await PostgresTestCluster.shared().query(
            nodes.url, "SELECT node, due_at, expires_at > now() FROM syncd_leases WHERE endpoint = 'a'")
        #expect(rows == [["two", nil, "true"]])
    }

    @Test("a run whose claim another node took stores nothing, records nothing and schedules nothing")
    func fenced() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        let storage = PostgresSyncStorage(store: nodes.store, spoolDirectory: NSTemporaryDirectory())
        _ = try await nodes.one.claim(["a"], now: Self.now)
        _ = try await PostgresTestCluster.shared().query(
            nodes.url, "UPDATE syncd_leases SET expires_at = now() - interval '1 second'")
        _ = try await nodes.two.claim(["a"], now: Self.now)
        let facts = RunFacts(startedAt: Self.now, finishedAt: Self.now + 1, httpStatus: 304)
        let late = SyncRun(endpoint: try Self.endpoint("a"), claim: nodes.one.holder)
        let error = await #expect(throws: StoreError.self) {
            try await storage.applyNotModified(run: late, facts: { facts })
        }
        #expect(error?.description.contains("another node (two) holds it now") == true, "\(String(describing: error))")
        let failed = try await storage.recordFailure("a: upstream down", outcome: .failed, run: late, facts: facts)
        #expect(failed.runID == nil)
        try await finish(nodes.one, [("a", Self.now + 3600)])
        let own = SyncRun(endpoint: try Self.endpoint("a"), claim: nodes.two.holder)
        let stored = try await storage.applyNotModified(run: own, facts: { facts })
        #expect(stored.outcome == .notModified)
        let rows = try await PostgresTestCluster.shared().query(
            nodes.url,
            """
            SELECT (SELECT count(*) FROM syncd_runs WHERE endpoint = 'a'), e.next_due_at, e.last_node, e.last_status
            FROM syncd_endpoints AS e WHERE e.name = 'a'
            """)
        // The first failure (from the fixture) and node two's 304; nothing of node one's late run.
        #expect(rows == [["2", nil, nil, "304"]])
    }

    @Test("a claim handed back is not taken again by a renewal that comes after it")
    func renewAfterFinish() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a"], now: Self.now)
        try await finish(nodes.one, [("a", nil)])
        try await nodes.one.renew(["a"])
        #expect(try await nodes.two.claim(["a"], now: Self.now).claimed.keys.sorted() == ["a"])
    }

    @Test("a node stopping hands back every claim at once")
    func releaseAll() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a", "b", "c"], now: Self.now)
        try await nodes.one.releaseAll()
        #expect(try await nodes.two.claim(["a", "b", "c"], now: Self.now).claimed.count == 3)
    }

    @Test("a claim skips an endpoint another node is claiming that moment, instead of waiting for it")
    func skipsLocked() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        _ = try await nodes.one.claim(["a", "b"], now: Self.now)
        try await nodes.one.releaseAll()
        let two = nodes.two
        let claims = try await nodes.store.client.withConnection { connection in
            _ = try await connection.query("BEGIN", logger: Self.logger)
            _ = try await connection.query(
                "SELECT * FROM syncd_leases WHERE endpoint = 'a' FOR UPDATE", logger: Self.logger)
            defer { _ = connection.query("ROLLBACK", logger: Self.logger) }
            return try await two.claim(["a", "b"], now: Self.now)
        }
        #expect(claims.claimed.keys.sorted() == ["b"])
        #expect(claims.refused == ["a": .contended])
    }

    @Test("two process's claims under one node name are still their own")
    func oneNameTwoProcesses() async throws {
        let nodes = try await nodes()
        defer { Task { await nodes.store.close() } }
        let again = PostgresLeases(store: nodes.store, node: "one", lease: 30)
        _ = try await nodes.one.claim(["a"], now: Self.now)
        #expect(try await again.claim(["a"], now: Self.now).claimed.isEmpty)
        try await again.releaseAll()
        #expect(try await again.claim(["a"], now: Self.now).claimed.isEmpty)
    }

    func finish(_ leases: PostgresLeases, _ rows: [(String, Double?)], reason: String? = nil) async throws {
        let error = await withCheckedContinuation { continuation in
            leases.finish(rows.map { NextDue(name: $0.0, due: $0.1, reason: reason) }) {
                continuation.resume(returning: $0)
            }
        }
        if let error { throw error }
    }
}
