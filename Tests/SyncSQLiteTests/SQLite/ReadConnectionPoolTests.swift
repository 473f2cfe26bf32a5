import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("SQLite: the read connection pool")
struct ReadConnectionPoolTests {
    @Test("data_version moves when another connection commits, stays while nothing does, and pins no snapshot")
    func dataVersion() async throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 2)
        let first = try pool.dataVersion()
        #expect(try pool.dataVersion() == first)
        try writer.execute("INSERT INTO t VALUES (1)")
        let second = try pool.dataVersion()
        #expect(second != first)
        #expect(try pool.dataVersion() == second)
        // A probe that kept its statement on a row would hold a read transaction: the checkpoint would be busy.
        let checkpoint = try writer.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(checkpoint.first?.integer("busy") == 0)
        let count = try await pool.read { database in try database.scalar("SELECT count(*) FROM t") }
        #expect(count == .integer(1))
    }

    @Test("a read that failed because the schema changed under it runs again, three times at most")
    func schemaChangeRetried() async throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 1)
        // SQLITE_SCHEMA (17): what SQLite returns when the writer changed the schema each time it re-read it.
        let changed = SQLiteError(extendedCode: 17, message: "database schema has changed")
        let attempts = Atomic(0)
        let value = try await pool.read { _ in
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            if attempt <= 3 { throw changed }
            return attempt
        }
        #expect(value == 4)

        let always = Atomic(0)
        let error = await #expect(throws: SQLiteError.self) {
            try await pool.read { _ -> Int in
                always.add(1, ordering: .relaxed)
                throw changed
            }
        }
        #expect(error?.resultCode == 17)
        #expect(always.load(ordering: .relaxed) == 4, "the read and three retries")

        let other = Atomic(0)
        await #expect(throws: SQLiteError.self) {
            try await pool.read { _ -> Int in
                other.add(1, ordering: .relaxed)
                throw SQLiteError(extendedCode: 1, message: "no such table")
            }
        }
        #expect(other.load(ordering: .relaxed) == 1, "any other error is not retried")
    }
}
