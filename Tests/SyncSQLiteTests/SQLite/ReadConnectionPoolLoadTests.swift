import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads run on threads of their own, so a sync's transaction never waits behind them, and the reads that wait for
/// a thread are bounded. Serialized: each test holds every read thread of the process for a moment.
@Suite("SQLite: reads under load", .serialized)
struct ReadConnectionPoolLoadTests {
    @Test("a write commits while reads hold every read thread", .timeLimit(.minutes(1)))
    func writerHasItsOwnThreads() async throws {
        let directory = try TemporaryDirectory()
        let writer = try DatabaseQueue(path: directory.file("cache.db"))
        try await writer.perform { try $0.execute("CREATE TABLE t (x INTEGER)") }
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 4)
        try await whileReadsHold(ReadConnectionPool.defaultCount, of: pool) {
            try await writer.perform { try $0.execute("INSERT INTO t VALUES (1)") }
        }
        let count = try await pool.read { try $0.scalar("SELECT count(*) FROM t") }
        #expect(count == .integer(1))
    }

    @Test("a read beyond the waiting bound fails at once with Busy; the pool serves again once reads finish")
    func boundedQueue() async throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 4, maxWaiting: 0)
        try await whileReadsHold(ReadConnectionPool.defaultCount, of: pool) {
            await #expect(throws: SQLiteError.busy) {
                try await pool.read { try $0.scalar("SELECT count(*) FROM t") }
            }
        }
        let count = try await pool.read { try $0.scalar("SELECT count(*) FROM t") }
        #expect(count == .integer(0))
    }
}
