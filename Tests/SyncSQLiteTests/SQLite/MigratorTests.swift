import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("SQLite: migrations")
struct MigratorTests {
    @Test("the embedded migrations create syncd's tables once, recording each with its checksum")
    func embedded() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let applied = try Migrator.embedded.migrate(database)
        #expect(applied.map(\.version) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(try Migrator.embedded.migrate(database).isEmpty)
        for table in [
            "syncd_meta", "syncd_endpoints", "syncd_runs", "syncd_errors", "syncd_documents", "syncd_tombstones",
            "syncd_drift", "syncd_path_types",
        ] {
            #expect(try database.tableExists(table), "\(table)")
        }
        #expect(
            try database.scalar("SELECT checksum FROM syncd_migrations WHERE version = 1")
                == .text(Migrator.embedded.migrations[0].checksum))
        let instance =
            try database.scalar("SELECT value FROM syncd_meta WHERE key = 'instance'")?.textRepresentation ?? ""
        #expect(instance.count == 16)
    }

    @Test("the embedded SQL is the file in migrations/, byte for byte")
    func sourceOfTruth() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("migrations/0001_initial.sql"), encoding: .utf8)
        #expect(Migrator.embedded.migrations.first?.sql == file)
    }

    @Test("an applied migration that was edited is refused with one sentence")
    func edited() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let original = Migrator(migrations: [.init(version: 1, name: "first", sql: "CREATE TABLE a (x)")])
        try original.migrate(database)
        let edited = Migrator(migrations: [.init(version: 1, name: "first", sql: "CREATE TABLE a (x, y)")])
        let error = try #require(throws: SQLiteError.self) { try edited.migrate(database) }
        #expect(
            error.description
                == "migration 0001_first differs from the one applied to \(directory.file("a.db")); an applied migration must never be edited: restore it and add a new one"
        )
    }

    @Test("a database written by a newer syncd is refused")
    func newer() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let newer = Migrator(migrations: [
            .init(version: 1, name: "first", sql: "CREATE TABLE a (x)"),
            .init(version: 2, name: "second", sql: "CREATE TABLE b (x)"),
        ])
        try newer.migrate(database)
        let older = Migrator(migrations: [.init(version: 1, name: "first", sql: "CREATE TABLE a (x)")])
        let error = try #require(throws: SQLiteError.self) { try older.migrate(database) }
        #expect(
            error.description
                == "\(directory.file("a.db")) was written by a newer syncd (it has migration 2, this binary knows up to 1); upgrade syncd to use it"
        )
    }

    @Test("a failing migration is rolled back and not recorded")
    func failing() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let broken = Migrator(migrations: [
            .init(version: 1, name: "broken", sql: "CREATE TABLE a (x); CREATE TABLE a (y)")
        ])
        #expect(throws: SQLiteError.self) { try broken.migrate(database) }
        #expect(try !database.tableExists("a"))
        #expect(try database.scalar("SELECT count(*) FROM syncd_migrations") == .integer(0))
    }
}
