import Foundation
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// The writer's connection: one thread of its own, short writes on the caller's thread when it is free, and the
/// write-ahead log's checkpoints always on the queue's thread.
@Suite("SQLite: the writer's queue")
struct DatabaseQueueTests {
    /// Frames in the write-ahead log, asked of another connection: a passive checkpoint reports them, whether or not
    /// it copies any.
    static func framesInLog(_ path: String) throws -> Int64 {
        let other = try Database(path: path)
        return try #require(try other.rows("PRAGMA wal_checkpoint(PASSIVE)").first?.integer("log"))
    }

    @Test("commits that fill the log have the queue's thread checkpoint it, so the log starts over instead of growing")
    func checkpointsOnTheQueue() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.db")
        let queue = try DatabaseQueue(path: path)
        try await queue.perform { try $0.execute("CREATE TABLE t (x BLOB)") }
        let blob = SQLiteValue.blob([UInt8](repeating: 7, count: 3000))
        // Each commit writes a page or more: without checkpoints the log would end with over 2,000 frames.
        let commits = 2 * DatabaseQueue.checkpointFrames
        for _ in 0..<commits {
            // Half of them as a 304 writes, on this thread when the connection is free.
            try await queue.performHereIfIdle { try $0.execute("INSERT INTO t (x) VALUES (?)", [blob]) }
            try await queue.perform { try $0.execute("INSERT INTO t (x) VALUES (?)", [blob]) }
        }
        // The last checkpoint asked for runs before anything queued after it.
        _ = try await queue.perform { _ in 0 }
        let frames = try Self.framesInLog(path)
        #expect(frames < Int64(DatabaseQueue.checkpointFrames) * 2, "the log was checkpointed and reused: \(frames)")
        #expect(try await queue.perform { try $0.scalar("SELECT count(*) FROM t") } == .integer(Int64(2 * commits)))
    }

    @Test("a large commit on the queue's thread is in the database file when the call returns, as SQLite would do")
    func largeCommitCheckpointsAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.db")
        let queue = try DatabaseQueue(path: path)
        // A page each.
        let blob = SQLiteValue.blob([UInt8](repeating: 7, count: Database.newDatabasePageSize - 1000))
        try await queue.perform { database in
            try database.execute("CREATE TABLE t (x BLOB)")
            try database.transaction(.immediate) {
                for _ in 0..<(DatabaseQueue.checkpointFrames + 500) {
                    try database.execute("INSERT INTO t (x) VALUES (?)", [blob])
                }
            }
        }
        // Left in the log, the rows would leave the file at its first two pages.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > DatabaseQueue.checkpointFrames * Database.newDatabasePageSize, "\(size) bytes")
    }

    @Test("a write submitted while the connection is free runs before the call returns, and its error is passed on")
    func submitHereIfIdle() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.file("cache.db"))
        let outcomes = Mutex<[String]>([])
        let record: @Sendable (Result<Void, any Error>) -> Void = { result in
            outcomes.withLock { outcomes in
                switch result {
                case .success: outcomes.append("stored")
                case .failure(let error): outcomes.append("\(error)")
                }
            }
        }
        queue.submitHereIfIdle({ try $0.execute("CREATE TABLE t (x)") }, completion: record)
        #expect(outcomes.withLock { $0 } == ["stored"])
        queue.submitHereIfIdle({ try $0.execute("CREATE TABLE t (x)") }, completion: record)
        let second = outcomes.withLock { $0 }
        #expect(second.count == 2)
        #expect(second.last?.contains("already exists") == true, "\(second)")
    }

    @Test("a write on the caller's thread returns what its body returned, a nil inside an optional included")
    func hereIfIdle() async throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.file("cache.db"))
        #expect(try await queue.performHereIfIdle { try $0.scalar("SELECT 42") } == .integer(42))
        let nothing: Int?? = try await queue.performHereIfIdle { _ in Int?.none }
        #expect(nothing == .some(nil), "an optional result that is nil is not taken for a busy connection")
    }
}
