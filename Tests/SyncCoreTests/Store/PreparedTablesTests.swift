import Foundation
import Testing

@testable import SyncCore

/// Before the first syncs of many endpoints, the daemon and `syncd sync` create the missing tables in one
/// transaction (each schema change makes every reader re-read the whole schema): all of them, or none.
@Suite("sync: tables made before the first syncs")
struct PreparedTablesTests {
    static let toml = """
        [[endpoint]]
        name = "users"
        url = "https://example.com/users"
        records = "$"
        primary_key = "id"
        columns = { id = { path = "id", type = "integer" } }

        [[endpoint]]
        name = "teams"
        url = "https://example.com/teams"
        records = "$"
        primary_key = "id"
        columns = { id = { path = "id", type = "integer" } }

        [[endpoint]]
        name = "flags"
        url = "https://example.com/flags.json"
        """

    @Test("the missing tables are made in one transaction, one schema change; a document endpoint gets none")
    func oneChange() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try Configuration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        let before = try storage.database.performBlocking { try $0.schemaVersion() }
        try await storage.prepareTables(for: configuration.endpoints)
        let tables = try storage.database.performBlocking { database in
            (try database.tableExists("users"), try database.tableExists("teams"), try database.tableExists("flags"))
        }
        #expect(tables == (true, true, false))
        let after = try storage.database.performBlocking { try $0.schemaVersion() }
        #expect(after == before + 2, "two tables, each with its version index in its CREATE TABLE, in one commit")
        let plan = try storage.database.performBlocking { database in
            try database.rows("EXPLAIN QUERY PLAN SELECT * FROM users WHERE _version > 1 ORDER BY _version")
                .compactMap { $0.text("detail") }
        }
        #expect(plan.contains { $0.contains("USING INDEX") }, "reads by version use the index: \(plan)")
        try await storage.prepareTables(for: configuration.endpoints)
        #expect(try storage.database.performBlocking { try $0.schemaVersion() } == after, "nothing left to make")
    }

    @Test("when one table cannot be made (its name taken by an index), none is: each first sync makes its own")
    func allOrNone() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try Configuration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        try storage.database.performBlocking { database in
            try database.execute("CREATE TABLE other (x INTEGER); CREATE INDEX teams ON other (x)")
        }
        await #expect(throws: SQLiteError.self) { try await storage.prepareTables(for: configuration.endpoints) }
        #expect(try storage.database.performBlocking { try $0.tableExists("users") } == false)
    }
}
