import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// `max_delete`: a snapshot that would delete more of the stored rows than it allows is refused and keeps them;
/// an empty snapshot stays `allow_empty`'s to decide.
@Suite("sync: max_delete")
struct MaxDeleteTests {
    static func toml(_ url: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "data"
        primary_key = ["id"]
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        """
    }

    static func body(_ ids: ClosedRange<Int>) -> String { #"{"data": \#(recordsJSON(ids))}"# }

    @Test("by default a snapshot deleting more than half of the stored rows is refused, naming max_delete")
    func defaultShare() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body(1...300))
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            let before = try fixture.rows("SELECT * FROM users ORDER BY id")

            upstream.setJSON("/users", Self.body(1...100))
            let refused = try await fixture.sync("users")
            #expect(refused.outcome == .refused)
            #expect(
                refused.error
                    == #"users: the response would delete 200 of the 300 stored rows, more than max_delete = "50%" allows; kept them (raise max_delete if the deletions are legitimate)"#
            )
            #expect(try fixture.rows("SELECT * FROM users ORDER BY id") == before)
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(0))
            #expect(try fixture.scalar("SELECT version FROM syncd_endpoints") == .integer(1))

            upstream.setJSON("/users", Self.body(1...150))
            let half = try await fixture.sync("users")
            #expect(half.outcome == .changed && half.deleted == 150)

            try fixture.reconfigure(Self.toml(upstream.url("/users"), extra: #"max_delete = "100%""#))
            upstream.setJSON("/users", Self.body(1...1))
            let all = try await fixture.sync("users")
            #expect(all.outcome == .changed && all.deleted == 149)
        }
    }

    @Test("a number of rows limits deletions whatever the table's size")
    func rowCount() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body(1...10))
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: "max_delete = 2"))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", Self.body(1...7))
            let refused = try await fixture.sync("users")
            #expect(refused.outcome == .refused)
            #expect(refused.error?.contains("would delete 3 of the 10 stored rows, more than max_delete = 2") == true)
            upstream.setJSON("/users", Self.body(1...8))
            #expect(try await fixture.sync("users").deleted == 2)
        }
    }

    @Test("a share is rounded up: 1 of 1 stored row may go, and 2 of 3, but not 2 of 2")
    func smallTables() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body(1...1))
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", Self.body(2...2))
            #expect(try await fixture.sync("users").deleted == 1)
            upstream.setJSON("/users", Self.body(3...5))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", Self.body(5...6))
            #expect(try await fixture.sync("users").deleted == 2)
            upstream.setJSON("/users", Self.body(7...8))
            #expect(try await fixture.sync("users").outcome == .refused)
        }
    }

    @Test("an empty snapshot is allow_empty's limit case: refused without it, allowed with it whatever max_delete says")
    func emptySnapshot() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.body(1...4))
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: #"max_delete = "100%""#))
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", #"{"data": []}"#)
            let refused = try await fixture.sync("users")
            #expect(refused.outcome == .refused && refused.error?.contains("allow_empty") == true)

            try fixture.reconfigure(Self.toml(upstream.url("/users"), extra: "allow_empty = true\nmax_delete = 0"))
            let emptied = try await fixture.sync("users")
            #expect(emptied.outcome == .changed && emptied.deleted == 4)
        }
    }
}
