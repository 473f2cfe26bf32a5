import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSupport

/// A sync end to end: a loopback upstream, a real SQLite file, the engine.
@Suite("sync: fetch, decode, apply")
struct SyncEngineTests {
    static func config(_ url: String, extra: String = "", columns: String? = nil) -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "data"
        primary_key = ["id"]
        \(extra)

        [endpoint.columns]
        \(columns ?? """
        id = { path = "id", type = "integer" }
        name = "name"
        city = "address.city"
        lat = { path = "address.geo.lat", type = "real" }
        """)
        """
    }

    static func user(_ id: Int, name: String = "User", city: String = "Gwenborough", lat: String = "-37.3159") -> String
    {
        #"{"id": \#(id), "name": "\#(name) \#(id)", "address": {"city": "\#(city)", "geo": {"lat": "\#(lat)"}}}"#
    }

    static func body(_ users: [String]) -> String {
        #"{"data": [\#(users.joined(separator: ",\n  "))], "meta": {"count": \#(users.count)}}"#
    }

    @Test("a first sync stores every record with its exact bytes, and its run")
    func firstSync() async throws {
        try await withTestUpstream { upstream in
            let users = (1...3).map { Self.user($0) }
            upstream.setJSON("/users", Self.body(users), etag: "\"a\"")
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users")))

            let report = try await fixture.sync("users")

            #expect(report.outcome == .changed)
            #expect(report.inserted == 3 && report.updated == 0 && report.deleted == 0)
            #expect(report.version == 1)
            #expect(report.storedWhileFetching, "nothing else waited to write: stored as the body arrived")
            #expect(report.bytes == Self.body(users).utf8.count && report.pages == 1)
            let rows = try fixture.rows("SELECT id, name, city, lat, _raw, _version FROM users ORDER BY id")
            #expect(rows.map { $0.integer("id") } == [1, 2, 3])
            #expect(rows[1].text("city") == "Gwenborough")
            #expect(rows[1]["lat"] == .real(-37.3159))
            #expect(rows.map { $0.text("_raw") } == users)
            #expect(rows.allSatisfy { $0.integer("_version") == 1 })
            let run = try #require(try fixture.rows("SELECT * FROM syncd_runs").first)
            #expect(run.text("outcome") == "changed")
            #expect(run.integer("http_status") == 200)
            #expect(run.integer("inserted") == 3)
            let state = try #require(try fixture.read { try EndpointState.named("users", $0) })
            #expect(state.etag == "\"a\"")
            #expect(state.recordCount == 3)
            #expect(state.lastError == nil)
        }
    }

    @Test("a 304 keeps the rows and refreshes freshness")
    func notModified() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body([Self.user(1)]), etag: "\"a\"")
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users")))
            let first = try await fixture.sync("users")
            #expect(first.outcome == .changed, "\(first.error ?? "")")
            fixture.clock.advance(by: 60)

            let report = try await fixture.sync("users")

            #expect(report.outcome == .notModified)
            #expect(report.version == 1)
            #expect(upstream.requests.last?.header("If-None-Match") == "\"a\"")
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(1))
            let state = try #require(try fixture.read { try EndpointState.named("users", $0) })
            #expect(state.lastSuccessAt == Timestamp.format(fixture.clock.now))
            #expect(state.version == 1)
            #expect(
                try fixture.scalar("SELECT outcome FROM syncd_runs ORDER BY id DESC LIMIT 1") == .text("not_modified"))
        }
    }

    @Test("a changed snapshot updates, inserts and deletes, leaving tombstones and moving versions")
    func changedSnapshot() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body((1...4).map { Self.user($0) }))
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.setJSON(
                "/users", Self.body([Self.user(1), Self.user(2, city: "Wisokyburgh"), Self.user(4), Self.user(5)]))

            let report = try await fixture.sync("users")

            #expect(report.outcome == .changed)
            #expect((report.inserted, report.updated, report.deleted) == (1, 1, 1))
            #expect(report.version == 2)
            let versions = try fixture.rows("SELECT id, _version FROM users ORDER BY id").map {
                [$0.integer("id") ?? 0, $0.integer("_version") ?? 0]
            }
            #expect(versions == [[1, 1], [2, 2], [4, 1], [5, 2]])
            let tombstones = try fixture.rows("SELECT key, version FROM syncd_tombstones WHERE endpoint = 'users'")
            #expect(tombstones.map { $0.text("key") } == ["3"])
            #expect(tombstones.first?.integer("version") == 2)
        }
    }

    @Test("an unchanged 200 writes no row and keeps the version")
    func unchangedBody() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body([Self.user(1), Self.user(2)]))
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users")))
            _ = try await fixture.sync("users")
            let changedAt = try fixture.scalar("SELECT _changed_at FROM users WHERE id = 1")
            fixture.clock.advance(by: 60)

            let report = try await fixture.sync("users")

            #expect(report.outcome == .unchanged)
            #expect(report.version == 1)
            #expect((report.inserted, report.updated, report.deleted) == (0, 0, 0))
            #expect(try fixture.scalar("SELECT _changed_at FROM users WHERE id = 1") == changedAt)
        }
    }

    @Test("a key that comes back loses its tombstone")
    func tombstoneCleared() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body([Self.user(1), Self.user(2)]))
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", Self.body([Self.user(1)]))
            _ = try await fixture.sync("users")
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(1))
            upstream.setJSON("/users", Self.body([Self.user(1), Self.user(2)]))

            _ = try await fixture.sync("users")

            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(0))
        }
    }

    @Test("incremental mode upserts and never deletes")
    func incremental() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body([Self.user(1), Self.user(2)]))
            let fixture = try SyncFixture(toml: Self.config(upstream.url("/users"), extra: "mode = \"incremental\""))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", Self.body([Self.user(3)]))

            let report = try await fixture.sync("users")

            #expect(report.deleted == 0 && report.inserted == 1)
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(3))
        }
    }

    @Test("a document endpoint stores the whole body and versions it")
    func document() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/flags.json", #"{"beta": true}"#)
            let fixture = try SyncFixture(
                toml: "[[endpoint]]\nname = \"flags\"\nurl = \"\(upstream.url("/flags.json"))\"\n")

            let first = try await fixture.sync("flags")
            let second = try await fixture.sync("flags")
            upstream.setJSON("/flags.json", #"{"beta": false}"#)
            let third = try await fixture.sync("flags")

            #expect([first.outcome, second.outcome, third.outcome] == [.changed, .unchanged, .changed])
            #expect(third.version == 2)
            let document = try #require(
                try fixture.read { try RecordReader(database: $0, endpoint: try fixture.endpoint("flags")).document() })
            #expect(String(decoding: document.body, as: UTF8.self) == #"{"beta": false}"#)
        }
    }

    @Test("a file:// endpoint is read from disk, and an unchanged file is not modified")
    func fileEndpoint() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("users.json")
        try Self.body([Self.user(1), Self.user(2)]).write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(toml: Self.config(URL(fileURLWithPath: path).absoluteString))

        let first = try await fixture.sync("users")
        let second = try await fixture.sync("users")

        #expect(first.outcome == .changed && first.inserted == 2)
        #expect(second.outcome == .notModified)
    }
}
