import Foundation
import Synchronization
import Testing

@testable import SyncCore

@Suite("SQLite: the wal-index header and the commit counter that reads it")
struct WALIndexHeaderTests {
    @Test("The stamp moves with every commit of another connection and stands while nothing commits")
    func stampMovesWithCommits() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let reader = try Database(path: directory.file("cache.db"), mode: .readOnly)
        _ = try reader.scalar("SELECT count(*) FROM t")
        let name = try #require(reader.fileName)
        let header = try #require(WALIndexHeader(path: name + "-shm"))
        var seen: Set<UInt64> = []
        for value in 0..<50 {
            let before = try #require(header.stamp())
            #expect(header.stamp() == before)
            #expect(seen.insert(before).inserted)
            try writer.execute("INSERT INTO t VALUES (?)", [.integer(Int64(value))])
            #expect(header.stamp() != before)
        }
        // A checkpoint that empties the WAL, and the commit after it that starts the WAL again, move it too.
        let before = try #require(header.stamp())
        _ = try writer.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        try writer.execute("INSERT INTO t VALUES (0)")
        #expect(try #require(header.stamp()) != before)
    }

    @Test("No header is read from a missing or short file, and no stamp from one of another format")
    func refusesOtherFiles() throws {
        let directory = try TemporaryDirectory()
        #expect(WALIndexHeader(path: directory.file("missing-shm")) == nil)
        try Data(count: 95).write(to: URL(fileURLWithPath: directory.file("short-shm")))
        #expect(WALIndexHeader(path: directory.file("short-shm")) == nil)
        // Two equal copies of a header whose version is not 3007000.
        try Data(count: 32_768).write(to: URL(fileURLWithPath: directory.file("zero-shm")))
        let zero = try #require(WALIndexHeader(path: directory.file("zero-shm")))
        #expect(zero.stamp() == nil)
        // A known version in the first copy only: a writer caught between the copies.
        var torn = Data(count: 32_768)
        withUnsafeBytes(of: UInt32(3_007_000).littleEndian) { torn.replaceSubrange(0..<4, with: $0) }
        torn[12] = 1
        try torn.write(to: URL(fileURLWithPath: directory.file("torn-shm")))
        #expect(try #require(WALIndexHeader(path: directory.file("torn-shm"))).stamp() == nil)
        torn.replaceSubrange(48..<96, with: torn[0..<48])
        try torn.write(to: URL(fileURLWithPath: directory.file("whole-shm")))
        #expect(try #require(WALIndexHeader(path: directory.file("whole-shm"))).stamp() == 0)
    }

    @Test("The pool's counter moves on the first call after each commit, without a probe while nothing commits")
    func poolFollowsCommits() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 1)
        #expect(pool.readsWALIndex)
        var last = try pool.dataVersion()
        for value in 0..<(2 * ReadConnectionPool.auditInterval) {
            try writer.execute("INSERT INTO t VALUES (?)", [.integer(Int64(value))])
            let probed = pool.probedCalls.load(ordering: .relaxed)
            let version = try pool.dataVersion()
            #expect(version != last)
            for _ in 0..<3 { #expect(try pool.dataVersion() == version) }
            // One probe for the commit, none for the calls after it.
            #expect(pool.probedCalls.load(ordering: .relaxed) == probed + 1)
            last = version
        }
        #expect(pool.readsWALIndex)
    }

    @Test("A database in rollback-journal mode has no wal-index: every call asks data_version")
    func rollbackJournal() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        _ = try writer.rows("PRAGMA journal_mode = DELETE")
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 1)
        #expect(!pool.readsWALIndex)
        let first = try pool.dataVersion()
        #expect(try pool.dataVersion() == first)
        try writer.execute("INSERT INTO t VALUES (1)")
        #expect(try pool.dataVersion() != first)
    }

    @Test("A header that does not move with data_version is found out by the audit and not used again")
    func auditDistrustsAStaleHeader() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        try writer.execute("INSERT INTO t VALUES (1)")
        // A copy of the wal-index, which no commit will touch.
        let name = try #require(writer.fileName)
        try FileManager.default.copyItem(atPath: name + "-shm", toPath: directory.file("copy-shm"))
        let pool = try ReadConnectionPool(
            path: directory.file("cache.db"), count: 1, maxWaiting: 0, walIndex: directory.file("copy-shm"))
        #expect(pool.readsWALIndex)
        let first = try pool.dataVersion()  // the first call audits, and records what it saw
        try writer.execute("INSERT INTO t VALUES (2)")
        var calls = 1
        while pool.readsWALIndex, calls <= ReadConnectionPool.auditInterval {
            _ = try pool.dataVersion()
            calls += 1
        }
        #expect(!pool.readsWALIndex)
        #expect(calls <= ReadConnectionPool.auditInterval + 1)
        #expect(try pool.dataVersion() != first)
        try writer.execute("INSERT INTO t VALUES (3)")
        let third = try pool.dataVersion()
        #expect(try pool.dataVersion() == third)
    }
}
