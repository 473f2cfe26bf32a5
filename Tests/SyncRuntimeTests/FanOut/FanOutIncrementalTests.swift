import Foundation
import SampleUpstream
import SyncPostgres
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore

/// A loopback Jira-like upstream (``JiraProjectIssues``) that records the `updatedSince` each project's issues
/// were asked with.
final class JiraProjectsUpstream: Sendable {
    let projects: JiraProjectIssues
    let server: LoopbackHTTPServer
    /// Per project key, the `updatedSince` of each request of its issues ("-" for none), in order.
    private let asked = Mutex<[String: [String]]>([:])

    private init(projects: JiraProjectIssues, server: LoopbackHTTPServer) {
        self.projects = projects
        self.server = server
    }

    /// ALPHA's two issues updated at :04 and :05, BETA's three at :01, :02 and :03 (2023-01-01T00:00:SS.000Z):
    /// ALPHA, walked first, has the later values, which BETA must not take for its own.
    static func start() async throws -> JiraProjectsUpstream {
        let projects = JiraProjectIssues([
            ("ALPHA", [Self.time(4), Self.time(5)]), ("BETA", [Self.time(1), Self.time(2), Self.time(3)]),
        ])
        let box = Mutex<JiraProjectsUpstream?>(nil)
        let server = try await LoopbackHTTPServer.start { request in
            let parts = request.path.split(separator: "/")
            if parts.count == 6, let upstream = box.withLock({ $0 }) {
                upstream.asked.withLock {
                    $0[String(parts[4]), default: []].append(request.query["updatedSince"] ?? "-")
                }
            }
            return projects.answer(request)
        }
        let upstream = JiraProjectsUpstream(projects: projects, server: server)
        box.withLock { $0 = upstream }
        return upstream
    }

    /// 2023-01-01T00:00:SS.000Z, as a timestamp column stores it (and so as the cursor is sent).
    static func time(_ second: Int) -> String { "2023-01-01T00:00:\(second < 10 ? "0" : "")\(second).000Z" }

    /// The `updatedSince` each project was asked with since the last call, by project key.
    func cursors() -> [String: [String]] {
        asked.withLock { asked in
            defer { asked.removeAll() }
            return asked
        }
    }

    /// Projects and their issues, the issues incremental by `updated` (`extra` added to the `incremental` table).
    func toml(incremental extra: String = "") -> String {
        JiraProjectIssues.endpointsTOML(baseURL: server.baseURL, incremental: extra)
    }

    func stop() async throws { try await server.shutdown() }
}

/// An issue as its `_raw` JSON reads.
struct JiraIssue: Decodable, Equatable {
    var key: String
    var summary: String
}

/// Child endpoints with an incremental cursor: each parent's walk sends that parent's own cursor, which moves only
/// with that parent's records; rows are upserted, a deleted flag deletes with a tombstone. The same run in each store.
@Suite("fan-out: an incremental cursor per parent")
struct FanOutIncrementalTests {
    /// Runs the walks in a cache over `store` (new, empty) against a fresh upstream, asserting what each run sends
    /// and stores; with `hasSQL`, the cursors stored in syncd_children too.
    static func perParentCursors(_ store: SyncStore, hasSQL: Bool) async throws {
        let upstream = try await JiraProjectsUpstream.start()
        do {
            let configuration = try SyncConfiguration.parse(upstream.toml(), sourcePath: "syncd.toml")
            let cache = try SyncCache(store: store, configuration: configuration)
            do {
                try await walk(upstream, cache, cursors: hasSQL ? { try await storedCursors(cache) } : nil)
            } catch {
                try? await cache.shutdown()
                throw error
            }
            try await cache.shutdown()
        } catch {
            try await upstream.stop()
            throw error
        }
        try await upstream.stop()
    }

    private static func walk(
        _ upstream: JiraProjectsUpstream, _ cache: SyncCache, cursors: (() async throws -> [String])?
    ) async throws {
        let time = JiraProjectsUpstream.time
        func issues() async throws -> [JiraIssue] {
            try await cache.records(JiraIssue.self, from: "issues").values.sorted { $0.key < $1.key }
        }
        #expect(try await cache.sync("projects").records == 2)
        let first = try await cache.sync("issues")
        #expect(first.outcome == .changed && first.inserted == 5, "\(first)")
        // Before any row, no cursor is sent.
        #expect(upstream.cursors() == ["ALPHA": ["-"], "BETA": ["-"]])
        if let cursors { #expect(try await cursors() == ["\(time(5)) updated", "\(time(3)) updated"]) }

        upstream.projects.update("ALPHA", 1, updated: time(6), summary: "Renamed")
        upstream.projects.delete("BETA", 2, updated: time(4))
        let second = try await cache.sync("issues")
        // Each project is asked from its own highest `updated`.
        #expect(upstream.cursors() == ["ALPHA": [time(5)], "BETA": [time(3)]])
        #expect(second.updated == 1 && second.deleted == 1 && second.records == 4, "\(second)")
        // The rows absent from the answers stay; the flagged one is gone, with a tombstone.
        #expect(
            try await issues() == [
                JiraIssue(key: "ALPHA-1", summary: "Renamed"), JiraIssue(key: "ALPHA-2", summary: "Issue 2 of ALPHA"),
                JiraIssue(key: "BETA-1", summary: "Issue 1 of BETA"),
                JiraIssue(key: "BETA-3", summary: "Issue 3 of BETA"),
            ])
        let changes = try await cache.changes("issues", since: first.version)
        #expect(changes.deleted.count == 1 && changes.deleted.first?.contains("20002") == true, "\(changes.deleted)")
        if let cursors { #expect(try await cursors() == ["\(time(6)) updated", "\(time(4)) updated"]) }

        // ALPHA is unchanged (a 304 keeps its cursor); BETA's answer has a timestamp too far ahead to adopt.
        upstream.projects.update("BETA", 3, updated: "2099-01-01T00:00:00.000Z", summary: "From the future")
        let third = try await cache.sync("issues")
        #expect(upstream.cursors() == ["ALPHA": [time(6)], "BETA": [time(4)]])
        #expect(third.updated == 1 && third.fanOut?.notModified == 1, "\(third)")
        #expect(third.recordProblems.first?.found.contains("not adopted as the cursor") == true, "\(third)")
        #expect(try await issues().last == JiraIssue(key: "BETA-3", summary: "From the future"))
        if let cursors { #expect(try await cursors() == ["\(time(6)) updated", "\(time(4)) updated"]) }

        let fourth = try await cache.sync("issues")
        #expect(upstream.cursors() == ["ALPHA": [time(6)], "BETA": [time(4)]])
        #expect(fourth.outcome == .notModified && fourth.fanOut?.notModified == 2, "\(fourth)")
    }

    /// The stored cursors of `issues`, by `cache.sql`.
    static func storedCursors(_ cache: SyncCache) async throws -> [String] {
        let rows = try await cache.sql(
            "SELECT cursor || ' ' || cursor_column FROM syncd_children WHERE endpoint = 'issues' ORDER BY parent_key")
        return rows.first?.rows.map { $0.first?.text ?? "null" } ?? []
    }

    @Test("SQLite: each parent sends its own cursor; 304s, empty and future answers keep it; flags delete")
    func sqlite() async throws {
        let directory = try TemporaryDirectory()
        try await Self.perParentCursors(.sqlite(path: directory.file("cache.db")), hasSQL: true)
    }

    @Test("the in-memory store: the same runs")
    func memory() async throws {
        try await Self.perParentCursors(.memory(), hasSQL: false)
    }

    @Test("PostgreSQL: the same runs", .enabled(if: PostgresTestCluster.isAvailable))
    func postgres() async throws {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        try await Self.perParentCursors(.postgres(url: url), hasSQL: true)
    }

    @Test("initial is sent before a parent's first rows, then its cursor less lag; another column starts over")
    func initialAndLag() async throws {
        let upstream = try await JiraProjectsUpstream.start()
        do {
            var fixture = try SyncFixture(
                toml: upstream.toml(incremental: #", initial = "2000-01-01T00:00:00Z", lag = "2s""#))
            _ = try await fixture.sync("projects")
            #expect(try await fixture.sync("issues").inserted == 5)
            #expect(upstream.cursors() == ["ALPHA": ["2000-01-01T00:00:00Z"], "BETA": ["2000-01-01T00:00:00Z"]])
            _ = try await fixture.sync("issues")
            let time = JiraProjectsUpstream.time
            #expect(upstream.cursors() == ["ALPHA": [time(3)], "BETA": [time(1)]])
            // Another cursor column: the stored cursors were of `updated`, so each parent starts again from initial.
            try fixture.reconfigure(
                upstream.toml(incremental: #", initial = "2000-01-01T00:00:00Z""#).replacingOccurrences(
                    of: #"column = "updated""#, with: #"column = "key""#))
            upstream.projects.update("ALPHA", 1, updated: time(6), summary: "Changed")
            upstream.projects.update("BETA", 1, updated: time(6), summary: "Changed")
            _ = try await fixture.sync("issues")
            #expect(upstream.cursors() == ["ALPHA": ["2000-01-01T00:00:00Z"], "BETA": ["2000-01-01T00:00:00Z"]])
            _ = try await fixture.sync("issues")
            #expect(upstream.cursors() == ["ALPHA": ["ALPHA-2"], "BETA": ["BETA-3"]])
        } catch {
            try await upstream.stop()
            throw error
        }
        try await upstream.stop()
    }
}
