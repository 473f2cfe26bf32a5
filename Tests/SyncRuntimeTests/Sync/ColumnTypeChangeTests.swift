import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A column whose `type` changes: a primary-key column is refused, on a 200 and a 304 alike, and every row stays; a
/// non-key column is dropped, added with its new type and refilled from `_raw`, so that it takes the new affinity.
@Suite("sync: column type changes")
struct ColumnTypeChangeTests {
    static func toml(_ url: String, id: String, code: String = "integer", key: String = "id") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "data"
        primary_key = ["\(key)"]

        [endpoint.columns]
        id = { path = "id", type = "\(id)" }
        email = { path = "email" }
        code = { path = "code", type = "\(code)" }
        """
    }

    static let body =
        #"{"data": [{"id": "1", "email": "a@x", "code": "00123"}, {"id": "2", "email": "b@x", "code": "7"}]}"#

    @Test(
        "a primary-key column whose type changes is refused with one sentence, and no row is lost",
        arguments: [("text", "integer"), ("integer", "text"), ("integer", "real")])
    func keyTypeChange(_ from: String, _ to: String) async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body)
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), id: from))
            #expect(try await fixture.sync("users").inserted == 2)
            let before = try fixture.rows("SELECT * FROM users ORDER BY rowid")

            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: to))
            for _ in 1...2 {
                let report = try await fixture.sync("users")
                #expect(report.outcome == .failed)
                #expect(
                    report.error
                        == "users: the type of the primary-key column \"id\" of \"users\" changed from \(from) to \(to), which would delete every stored row; set the type back to \(from), or drop the table or give the endpoint a new name"
                )
            }
            #expect(try fixture.rows("SELECT * FROM users ORDER BY rowid") == before)
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(0))
        }
    }

    @Test("on a 304, a changed primary key or primary-key type is refused too, and the stored key is kept")
    func keyChangeOnNotModified() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body, etag: "\"v1\"")
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), id: "text"))
            _ = try await fixture.sync("users")

            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: "text", key: "email"))
            let renamed = try await fixture.sync("users")
            #expect(renamed.outcome == .failed && renamed.httpStatus == 304)
            #expect(
                renamed.error?.hasPrefix("users: the primary key of \"users\" changed from (id) to (email)") == true)
            #expect(try fixture.scalar("SELECT primary_key FROM syncd_endpoints") == .text(#""id""#))

            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: "integer"))
            let retyped = try await fixture.sync("users")
            #expect(retyped.outcome == .failed && retyped.httpStatus == 304)
            #expect(retyped.error?.contains("changed from text to integer") == true)
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(2))
        }
    }

    @Test("a 304 skips the table check while schema and configuration hold, and sees a change to either at once")
    func checkedTableOnNotModified() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body, etag: "\"v1\"")
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), id: "text"))
            _ = try await fixture.sync("users")
            // These two find the table as configured; the second no longer reads its columns.
            #expect(try await fixture.sync("users").outcome == .notModified)
            #expect(try await fixture.sync("users").outcome == .notModified)

            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: "text", key: "email"))
            let renamed = try await fixture.sync("users")
            #expect(renamed.outcome == .failed && renamed.httpStatus == 304)
            #expect(renamed.error?.contains("the primary key of \"users\" changed from (id) to (email)") == true)

            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: "text"))
            #expect(try await fixture.sync("users").outcome == .notModified)
            #expect(try await fixture.sync("users").outcome == .notModified)
            // Another connection takes a column syncd needs: the schema version moved, so the next 304 looks again.
            let other = try Database(path: fixture.directory.file("cache.db"))
            try other.execute("ALTER TABLE users DROP COLUMN _changed_at")
            let broken = try await fixture.sync("users")
            #expect(broken.outcome == .failed && broken.httpStatus == 304)
            #expect(broken.error?.contains("exists but was not created by syncd") == true)
        }
    }

    @Test("a non-key column whose type changes is refilled from _raw with the new type's affinity")
    func nonKeyTypeChange() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body, etag: "\"v1\"")
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), id: "text"))
            _ = try await fixture.sync("users")
            #expect(try fixture.scalar("SELECT code FROM users WHERE id = '1'") == .integer(123))

            // On a 304 the stored rows are refilled; the next 200 writes through the new affinity too.
            try fixture.reconfigure(Self.toml(upstream.url("/users"), id: "text", code: "text"))
            let refilled = try await fixture.sync("users")
            #expect(refilled.outcome == .notModified)
            #expect(try fixture.scalar("SELECT code FROM users WHERE id = '1'") == .text("00123"))
            #expect(try fixture.scalar("SELECT typeof(code) FROM users WHERE id = '2'") == .text("text"))
            #expect(try fixture.scalar("SELECT email FROM users WHERE id = '2'") == .text("b@x"))

            upstream.setJSON("/users", Self.body.replacingOccurrences(of: "\"7\"", with: "\"007\""), etag: "\"v2\"")
            let changed = try await fixture.sync("users")
            #expect(changed.outcome == .changed && changed.updated == 1 && changed.deleted == 0)
            #expect(try fixture.scalar("SELECT code FROM users WHERE id = '2'") == .text("007"))
        }
    }
}
