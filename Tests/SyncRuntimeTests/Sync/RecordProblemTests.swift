import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// One bad record never sinks the others; each problem is stored with its record, path, expectation and finding.
@Suite("sync: bad records")
struct RecordProblemTests {
    static func toml(_ url: String) -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        email = { path = "email", required = true }
        lat = { path = "address.geo.lat", type = "real" }
        """
    }

    @Test(
        "a record without a key or with a mistyped required column is rejected alone; a mistyped optional column is NULL"
    )
    func problems() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON(
                "/users",
                """
                [
                  {"id": 1, "email": "a@example.com", "address": {"geo": {"lat": "-37.3"}}},
                  {"email": "nokey@example.com"},
                  {"id": 3, "email": {"not": "a string"}},
                  {"id": 8, "email": "h@example.com", "address": {"geo": {"lat": "really far north"}}}
                ]
                """)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))

            let report = try await fixture.sync("users")

            #expect(report.outcome == .changed)
            #expect(report.receivedRecords == 4 && report.rejected == 2 && report.inserted == 2)
            #expect(
                try fixture.rows("SELECT id, lat FROM users ORDER BY id").map { $0.values } == [
                    [1, .real(-37.3)], [8, .null],
                ])
            let messages = try fixture.rows("SELECT message, action FROM syncd_errors ORDER BY record_index").map {
                "\($0.text("action") ?? ""): \($0.text("message") ?? "")"
            }
            #expect(
                messages == [
                    "rejected: users[#1] > id (integer): found missing",
                    "rejected: users[id=3] > email (text): found object",
                    "nulled: users[id=8] > address.geo.lat (real): found string \"really far north\"",
                ])
        }
    }

    @Test("a record rejected on the next sync keeps its stored version")
    func rejectedKeepsPrevious() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1, "email": "a@example.com"}, {"id": 2, "email": "b@example.com"}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", #"[{"id": 1, "email": "a@example.com"}, {"id": 2, "email": null}]"#)

            let report = try await fixture.sync("users")

            #expect(report.rejected == 1 && report.deleted == 0)
            #expect(
                try fixture.scalar("SELECT _raw FROM users WHERE id = 2")
                    == .text(#"{"id": 2, "email": "b@example.com"}"#))
        }
    }

    @Test("duplicate keys in one response: the last wins, and it is reported")
    func duplicates() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON(
                "/users", #"[{"id": 1, "email": "first@example.com"}, {"id": 1, "email": "last@example.com"}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))

            let report = try await fixture.sync("users")

            #expect(try fixture.scalar("SELECT email FROM users WHERE id = 1") == .text("last@example.com"))
            #expect(report.recordProblems.map { $0.action } == [.replaced])
            #expect(
                try fixture.scalar("SELECT message FROM syncd_errors")
                    == .text(
                        "users[id=1] > $ (a unique key): found a duplicate of an earlier record (the last one wins)"))
        }
    }

    @Test("a column added to the configuration is filled from _raw in the next sync's transaction, even a 304")
    func addedColumn() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1, "email": "a@example.com", "name": "Ann"}]"#, etag: "\"v1\"")
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            try fixture.reconfigure(Self.toml(upstream.url("/users")) + "\nname = \"name\"\n")

            let report = try await fixture.sync("users")

            #expect(report.outcome == .notModified)
            #expect(report.version == 2)
            #expect(try fixture.scalar("SELECT name FROM users WHERE id = 1") == .text("Ann"))
        }
    }

    @Test("a changed primary key is refused with a sentence, and nothing is written")
    func changedKey() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1, "email": "a@example.com"}]"#)
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            try fixture.reconfigure(
                Self.toml(upstream.url("/users")).replacingOccurrences(of: "[\"id\"]", with: "[\"email\"]"))

            let report = try await fixture.sync("users")

            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == "users: the primary key of \"users\" changed from (id) to (email); drop the table or give the endpoint a new name"
            )
        }
    }
}
