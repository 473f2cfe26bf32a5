import Logging
import PostgresNIO
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncPostgres
@testable import SyncSQLite

@Suite("PostgresStore: opening, migrating", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresStoreTests {
    static let logger = Logger(label: "syncd.tests")

    @Test("a new database is migrated once; opening it again applies nothing and keeps its instance")
    func migratesOnce() async throws {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        let location = try PostgresLocation(parsing: url)
        let first = try await PostgresStore.open(location, password: nil, logger: Self.logger)
        let instance = try await first.withSession { session in
            try session.scalar(String.self, "SELECT value FROM syncd_meta WHERE key = 'instance'")
        }
        await first.close()
        let again = try await PostgresStore.open(location, password: nil, logger: Self.logger)
        defer { Task { await again.close() } }
        let (instanceAgain, versions) = try await again.withSession { session in
            (
                try session.scalar(String.self, "SELECT value FROM syncd_meta WHERE key = 'instance'"),
                try session.query("SELECT version FROM syncd_migrations ORDER BY version").rows.map {
                    try $0[0].decode(Int32.self)
                }
            )
        }
        #expect(instance?.count == 16)
        #expect(instanceAgain == instance)
        #expect(versions == PostgresMigrations.all.map { Int32($0.version) })
    }

    @Test("a database written by a newer syncd is refused with a sentence that says so")
    func newerDatabaseRefused() async throws {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        let location = try PostgresLocation(parsing: url)
        let store = try await PostgresStore.open(location, password: nil, logger: Self.logger)
        _ = try await store.withSession { session in
            try session.query("INSERT INTO syncd_migrations (version, name, checksum) VALUES (999, 'future', 'x')")
        }
        await store.close()
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStore.open(location, password: nil, logger: Self.logger)
        }
        #expect(error?.description.contains("newer syncd (it has migration 999") == true)
        #expect(error?.description.contains(location.redacted) == true)
    }

    @Test("a server that is not there fails the open with one sentence naming it, without its password")
    func unreachable() async throws {
        let location = try PostgresLocation(parsing: "postgresql://syncd:hunter2@127.0.0.1:1/cache?connect_timeout=2")
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStore.open(location, password: nil, logger: Self.logger)
        }
        #expect(
            error?.description.hasPrefix("cannot open the PostgreSQL store postgresql://syncd@127.0.0.1:1/cache")
                == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test("migration files split into statements at semicolons outside strings, names and comments")
    func statements() {
        let sql = """
            -- a comment; with a semicolon
            CREATE TABLE "a;b" (x TEXT DEFAULT ';');
            INSERT INTO "a;b" VALUES ('it''s; fine');

            """
        #expect(
            PostgresMigrations.statements(sql) == [
                #"CREATE TABLE "a;b" (x TEXT DEFAULT ';')"#, #"INSERT INTO "a;b" VALUES ('it''s; fine')"#,
            ])
    }
}
