import Foundation
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("SQLite: the wal-index header and the commit counter that reads it")
struct WALIndexHeaderTests {
    /// A writer that made table `t`, and a read-only connection that has read it (and so mapped the wal-index).
    static func connections(in directory: TemporaryDirectory) throws -> (writer: Database, reader: Database) {
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        let reader = try Database(path: directory.file("cache.db"), mode: .readOnly)
        _ = try reader.scalar("SELECT count(*) FROM t")
        return (writer, reader)
    }

    /// A writer that made table `t` and put the database back in rollback-journal mode: it has no wal-index.
    static func rollbackJournalWriter(in directory: TemporaryDirectory) throws -> Database {
        let writer = try Database(path: directory.file("cache.db"))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        _ = try writer.rows("PRAGMA journal_mode = DELETE")
        return writer
    }

    @Test("The stamp moves with every commit of another connection and stands while nothing commits")
    func stampMovesWithCommits() throws {
        let directory = try TemporaryDirectory()
        let (writer, reader) = try Self.connections(in: directory)
        let header = try #require(WALIndexHeader(mappedBy: reader))
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

    @Test("The header is SQLite's own mapping: the process keeps one descriptor of the -shm file, SQLite's")
    func holdsNoDescriptor() throws {
        let directory = try TemporaryDirectory()
        let (writer, reader) = try Self.connections(in: directory)
        defer { withExtendedLifetime(writer) {} }
        // Descriptors of this test's own -shm file (other tests running beside it open files of their own).
        let shm = directory.file("cache.db-shm")
        func descriptors() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor))
                    .map {
                        URL(fileURLWithPath: $0).resolvingSymlinksInPath()
                            == URL(fileURLWithPath: shm).resolvingSymlinksInPath()
                    }
                    ?? false
            }
        }
        let before = try descriptors()
        #expect(before == 1)  // SQLite's, shared by the process's connections
        let header = try #require(WALIndexHeader(mappedBy: reader))
        #expect(header.stamp() != nil)
        #expect(try descriptors() == before)
    }

    @Test("No header without a wal-index, and no stamp from a header torn between its copies or of another format")
    func refusesOtherHeaders() throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.rollbackJournalWriter(in: directory)
        #expect(WALIndexHeader(mappedBy: writer) == nil)
        #expect(WALIndexHeader(bytes: []).stamp() == nil)  // version 0
        var torn = [UInt8](repeating: 0, count: 96)
        withUnsafeBytes(of: UInt32(3_007_000).littleEndian) { torn.replaceSubrange(0..<4, with: $0) }
        torn[12] = 1  // isInit
        torn[8] = 7  // iChange
        #expect(WALIndexHeader(bytes: torn).stamp() == nil)  // only the first copy written
        torn.replaceSubrange(48..<96, with: torn[0..<48])
        #expect(WALIndexHeader(bytes: torn).stamp() == 7 << 32)
        torn[12] = 0
        torn[60] = 0
        #expect(WALIndexHeader(bytes: torn).stamp() == nil)  // not initialised
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
        let writer = try Self.rollbackJournalWriter(in: directory)
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
        // A copy of the header, which no commit will move.
        let reader = try Database(path: directory.file("cache.db"), mode: .readOnly)
        _ = try reader.scalar("SELECT count(*) FROM t")
        let stale = WALIndexHeader(bytes: try #require(WALIndexHeader(mappedBy: reader)).bytes)
        let pool = try ReadConnectionPool(path: directory.file("cache.db"), count: 1, maxWaiting: 0, walIndex: stale)
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
