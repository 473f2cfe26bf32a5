import Testing

@testable import SyncCore

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
}
