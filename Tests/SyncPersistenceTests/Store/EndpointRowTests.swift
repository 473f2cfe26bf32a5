import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A collection sync writes its endpoint's kind and URL after the records, and only when they changed: a page written
/// at the start of a long transaction and again at its end makes SQLite re-checksum the whole WAL at the commit.
@Suite("sync: the endpoint's row")
struct EndpointRowTests {
    @Test("a first sync makes the row; the same kind and URL are not written again; a new URL is, with the records")
    func writtenWhenChanged() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            upstream.setJSON("/people", HTTPBehaviourFixture.body)
            var fixture = try SyncFixture(toml: HTTPBehaviourFixture.toml(upstream.url("/users")))
            #expect(try await fixture.sync("users").outcome == .changed)
            let first = try fixture.rows("SELECT kind, url, version, record_count FROM syncd_endpoints")
            #expect(first.count == 1)
            #expect(first.first?.text("kind") == "collection")
            #expect(first.first?.text("url") == upstream.url("/users"))
            #expect(first.first?.integer("version") == 1 && first.first?.integer("record_count") == 1)

            // Counts the writes of the two columns only the endpoint's own upsert sets.
            try await fixture.database.perform { database in
                try database.execute("CREATE TABLE url_writes (url TEXT)")
                try database.execute(
                    """
                    CREATE TRIGGER url_written AFTER UPDATE OF kind, url ON syncd_endpoints
                    BEGIN INSERT INTO url_writes VALUES (new.url); END
                    """)
            }
            #expect(try await fixture.sync("users").outcome == .unchanged)
            #expect(try fixture.scalar("SELECT count(*) FROM url_writes") == .integer(0), "the same: not written")

            try fixture.reconfigure(HTTPBehaviourFixture.toml(upstream.url("/people")))
            #expect(try await fixture.sync("users").outcome == .unchanged)
            let writes = try fixture.rows("SELECT url FROM url_writes").compactMap { $0.text("url") }
            #expect(writes == [upstream.url("/people")], "a new URL: written once")
            #expect(try fixture.scalar("SELECT url FROM syncd_endpoints") == .text(upstream.url("/people")))
        }
    }

    @Test("a first sync whose body is refused leaves no row from the transaction, only the failure's")
    func refusedFirstSync() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"{"data": [{"id": 1, "name": "Ann"}, "#)
            let fixture = try SyncFixture(toml: HTTPBehaviourFixture.toml(upstream.url("/users")))
            #expect(try await fixture.sync("users").outcome.isFailure)
            let rows = try fixture.rows("SELECT kind, version, record_count, last_error FROM syncd_endpoints")
            #expect(rows.count == 1)
            #expect(rows.first?.integer("version") == 0 && rows.first?.integer("record_count") == 0)
            #expect(rows.first?.text("last_error")?.isEmpty == false)
            #expect(
                try fixture.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'users'") == .integer(0),
                "the table made in the run's transaction went with it")
        }
    }
}
