import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncPersistence
@testable import SyncSQLite

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
        let configuration = try SyncConfiguration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        let before = try storage.database.performBlocking { try $0.schemaVersion() }
        try await storage.prepareTables(for: configuration.plans)
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
        try await storage.prepareTables(for: configuration.plans)
        #expect(try storage.database.performBlocking { try $0.schemaVersion() } == after, "nothing left to make")
    }

    @Test("the page cache grows for the transaction that makes them, and is the connection's own again after")
    func cacheRestored() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        let size = { try storage.database.performBlocking { try $0.scalar("PRAGMA cache_size") } }
        let before = try size()
        try await storage.prepareTables(for: configuration.plans)
        #expect(try size() == before)
    }

    /// A new database in `directory` with the tables of ``toml`` made.
    static func prepared(in directory: TemporaryDirectory) async throws -> (SyncConfiguration, SQLiteSyncStorage) {
        let configuration = try SyncConfiguration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        try await storage.prepareTables(for: configuration.plans)
        return (configuration, storage)
    }

    /// One run of `users` storing these ids.
    static func sync(_ ids: [Int], _ storage: SQLiteSyncStorage, _ configuration: SyncConfiguration) async throws
        -> SyncSummary
    {
        let spool = BodySpool(directory: storage.spoolDirectory)
        try spool.append(ByteBuffer(string: "[" + ids.map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"))
        return try await storage.applyCollection(
            DecodedBody(spool: spool), run: SyncRun(endpoint: try #require(configuration.plan(named: "users"))),
            facts: { RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200) })
    }

    @Test("a table made here is not checked again by its first sync, while no one changes the schema")
    func firstSyncTrustsIt() async throws {
        let directory = try TemporaryDirectory()
        let (configuration, storage) = try await Self.prepared(in: directory)
        let checked = { try storage.database.performBlocking { $0.checkedShapes["users"] } }
        let made = try #require(try checked())
        #expect(made.schemaVersion == (try storage.database.performBlocking { try $0.schemaVersion() }))
        #expect(try await Self.sync([1, 2], storage, configuration).inserted == 2)
        #expect(try checked() == made, "the first sync found the table as it was made, and did not look again")
    }

    @Test("a table made here and then remade by another connection is checked again: its other key is refused")
    func changedUnderneath() async throws {
        let directory = try TemporaryDirectory()
        let (configuration, storage) = try await Self.prepared(in: directory)
        let other = try Database(path: directory.file("cache.db"))
        try other.execute(
            """
            DROP TABLE users;
            CREATE TABLE users (code TEXT PRIMARY KEY NOT NULL, id INTEGER, _raw TEXT NOT NULL,
                _version INTEGER NOT NULL, _changed_at TEXT NOT NULL, _created_version INTEGER)
            """)
        await #expect(throws: StoreError.primaryKeyChanged) { try await Self.sync([1], storage, configuration) }
    }

    @Test("when one table cannot be made (its name taken by an index), none is: each first sync makes its own")
    func allOrNone() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        let storage = try SQLiteSyncStorage.open(path: directory.file("cache.db"))
        try storage.database.performBlocking { database in
            try database.execute("CREATE TABLE other (x INTEGER); CREATE INDEX teams ON other (x)")
        }
        await #expect(throws: SQLiteError.self) { try await storage.prepareTables(for: configuration.plans) }
        #expect(try storage.database.performBlocking { try $0.tableExists("users") } == false)
    }
}
