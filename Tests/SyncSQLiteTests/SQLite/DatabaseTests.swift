import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("SQLite: connections, statements, transactions")
struct DatabaseTests {
    @Test("a new database is in WAL mode and reads back what was written")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("wal"))
        try database.execute("CREATE TABLE t (a INTEGER, b REAL, c TEXT, d BLOB)")
        try database.execute(
            "INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(42), .real(1.5), .text("é\u{0}x"), .blob([0, 255])])
        let row = try #require(try database.rows("SELECT a, b, c, d FROM t").first)
        #expect(row.values == [.integer(42), .real(1.5), .text("é\u{0}x"), .blob([0, 255])])
    }

    @Test("a new database gets 8 KiB pages; an existing one keeps the page size it was made with")
    func pageSize() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("new.db"))
        try database.execute("CREATE TABLE t (a)")
        #expect(try database.scalar("PRAGMA page_size") == .integer(8_192))

        // A database made before syncd chose 8 KiB, with SQLite's default.
        let old = directory.file("old.db")
        try Database(path: old, newDatabasePageSize: 4_096).execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        let existing = try Database(path: old)
        #expect(try existing.scalar("PRAGMA page_size") == .integer(4_096))
        #expect(try existing.scalar("SELECT a FROM t") == .integer(1))
    }

    @Test("tableExists finds tables and views of the main schema, made on this connection or another, and nothing else")
    func tableExists() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try database.execute("CREATE TABLE users (id INTEGER)")
        try database.execute("CREATE VIEW active AS SELECT * FROM users")
        try database.execute("CREATE INDEX users_id ON users (id)")
        try database.execute("CREATE TEMP TABLE scratch (x)")
        #expect(try database.tableExists("users"))
        #expect(try database.tableExists("active"))
        #expect(try !database.tableExists("users_id"))
        #expect(try !database.tableExists("scratch"))
        #expect(try !database.tableExists("nobody"))
        #expect(try !database.tableExists("users'; --"))
        // A table another connection creates is found once this one reads the new schema.
        let other = try Database(path: directory.file("a.db"))
        try other.execute("CREATE TABLE orders (id INTEGER)")
        #expect(try database.tableExists("orders"))
        try other.execute("DROP TABLE orders")
        #expect(try !database.tableExists("orders"))
        // A read-only connection (the read API's, `syncd sql`'s) asks the same way.
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        #expect(try reader.tableExists("users"))
        #expect(try reader.tableExists("active"))
        #expect(try !reader.tableExists("nobody"))
    }

    @Test("a statement kept for reuse holds no read transaction, and follows schema changes")
    func keptStatements() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("a.db"))
        try writer.execute("CREATE TABLE t (a INTEGER)")
        try writer.execute("INSERT INTO t VALUES (?)", [.integer(1)])
        try writer.execute("INSERT INTO t VALUES (?)", [.integer(2)])
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        // scalar stops at the first of two rows: the statement kept must not stay on it.
        #expect(try reader.scalar("SELECT a FROM t ORDER BY a") == .integer(1))
        let checkpoint = try writer.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(checkpoint.first?.integer("busy") == 0)
        try writer.execute("ALTER TABLE t ADD COLUMN b TEXT")
        try writer.execute("UPDATE t SET b = ?", [.text("x")])
        #expect(try reader.rows("SELECT * FROM t ORDER BY a").map(\.values.count) == [2, 2])
        #expect(try reader.scalar("SELECT a FROM t ORDER BY a") == .integer(1))
        // More distinct statements than are kept: each still runs.
        for number in 0..<(Database.cachedStatementLimit * 2) {
            #expect(
                try reader.scalar("SELECT \(number) + a FROM t WHERE a = ?", [.integer(2)])
                    == .integer(Int64(number) + 2))
        }
    }

    @Test("a statement used all the time stays prepared while more distinct ones than are kept come and go")
    func cachedStatementsLeastRecentlyUsed() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try database.execute("CREATE TABLE t (a INTEGER)")
        let before = database.cachePreparations
        let rounds = Database.cachedStatementLimit * 3
        for number in 0..<rounds {
            try database.execute("INSERT INTO t VALUES (?)", [.integer(Int64(number))])
            #expect(try database.scalar("SELECT \(number) + count(*) FROM t") == .integer(Int64(2 * number + 1)))
        }
        // The INSERT once, each distinct SELECT once.
        #expect(database.cachePreparations - before == 1 + rounds)
    }

    @Test("a file that is not a database is refused when opened")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("text.db")
        try String(repeating: "not a database ", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try Database(path: path)
        } throws: { error in
            (error as? SQLiteError)?.resultCode == 26
        }
    }

    @Test(
        "a database path that is a FIFO, a directory or a device is refused at once, never waited on in read()",
        arguments: [Database.Mode.readWrite, .readOnly])
    func notARegularFile(mode: Database.Mode) throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("fifo.db")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (directory.path, "a directory"), ("/dev/zero", "a device")] {
            let error = try #require(throws: SQLiteError.self) { _ = try Database(path: path, mode: mode) }
            #expect(error.resultCode == 14)
            #expect(error.message == "cannot open \(path): it is \(kind), not a regular file")
        }
    }

    @Test("an error names the SQL but never its arguments")
    func errorDescription() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try database.execute("CREATE TABLE t (a TEXT UNIQUE)")
        try database.execute("INSERT INTO t VALUES (?)", [.text("secret-value")])
        let error = try #require(throws: SQLiteError.self) {
            try database.execute("INSERT INTO t VALUES (?)", [.text("secret-value")])
        }
        #expect(
            error.description
                == "SQLite error 19 (SQLITE_CONSTRAINT): UNIQUE constraint failed: t.a - while executing `INSERT INTO t VALUES (?)`"
        )
        #expect(error.extendedCode == 2067)
    }

    @Test("a wrong number of arguments throws instead of binding NULLs")
    func argumentCount() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let error = try #require(throws: SQLiteError.self) { try database.execute("SELECT ?, ?", [.integer(1)]) }
        #expect(error.message == "wrong number of arguments: 1 given, 2 expected")
    }

    @Test("a transaction that throws is rolled back, and the body's error is the one thrown")
    func rollback() throws {
        struct Boom: Error {}
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try database.execute("CREATE TABLE t (a INTEGER)")
        #expect(throws: Boom.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(0))
        #expect(!database.isInTransaction)
    }

    @Test("a read-only connection cannot write")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("a.db"))
        try writer.execute("CREATE TABLE t (a INTEGER)")
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        let error = try #require(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error.resultCode == 8)
    }

    @Test("a reader in a transaction keeps its snapshot while a writer commits (WAL)")
    func snapshotIsolation() throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("a.db"))
        try writer.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        try reader.execute("BEGIN")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(1))
        try writer.transaction { try writer.execute("INSERT INTO t VALUES (2); INSERT INTO t VALUES (3)") }
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(1))
        try reader.execute("COMMIT")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(3))
    }

    @Test(
        "identifiers from the configuration are validated and quoted",
        arguments: [
            ("users", true), ("a1_b", true), ("Users", false), ("1abc", false), ("_raw", false), ("drop table", false),
            ("a\"b", false), (String(repeating: "a", count: 63), true), (String(repeating: "a", count: 64), false),
        ])
    func identifiers(name: String, valid: Bool) throws {
        let identifier = try? SQLIdentifier(validating: name)
        #expect((identifier != nil) == valid)
        if let identifier { #expect(identifier.quoted == "\"\(name)\"") }
        #expect(SQLIdentifier.quote("a\"b") == "\"a\"\"b\"")
        #expect(SQLIdentifier.quote("\"x\"") == "\"\"\"x\"\"\"")
        #expect(SQLIdentifier.quote("") == "\"\"")
    }
}

@Suite("SQLite: `syncd sql`'s read-only guard")
struct ReadOnlyGuardTests {
    @Test(
        "reads are allowed",
        arguments: [
            "SELECT count(*) FROM t",
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT * FROM n",
            "PRAGMA table_info(t)", "SELECT * FROM pragma_table_info('t')", "PRAGMA user_version",
        ])
    func reads(sql: String) throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("a.db"))
        try writer.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        try reader.restrictToReading()
        try reader.forEachStatement(sql) { _, _ in }
    }

    @Test(
        "writes, ATTACH, writing PRAGMAs and load_extension are refused",
        arguments: [
            "INSERT INTO t VALUES (2)", "DELETE FROM t", "DROP TABLE t", "CREATE TABLE u (a)", "ATTACH 'x.db' AS x",
            "PRAGMA user_version = 5", "PRAGMA journal_mode = DELETE", "SELECT load_extension('x')", "VACUUM",
            "PRAGMA query_only = 0",
        ])
    func writes(sql: String) throws {
        let directory = try TemporaryDirectory()
        let writer = try Database(path: directory.file("a.db"))
        try writer.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
        let reader = try Database(path: directory.file("a.db"), mode: .readOnly)
        try reader.restrictToReading()
        let error = try #require(throws: SQLiteError.self) { try reader.forEachStatement(sql) { _, _ in } }
        #expect(Database.isNotAuthorized(error) || error.resultCode == 8, "\(error)")
        #expect(try writer.scalar("SELECT count(*) FROM t") == .integer(1))
    }
}
