import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Migration 4 rebuilds syncd_errors so that its action may be `kept`, with every stored problem kept.
@Suite("SQLite: migration 4, kept problems")
struct KeptProblemsMigrationTests {
    @Test("the problems stored before migration 4 survive it, and `kept` is accepted after it")
    func keepsRows() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        let upToThree = Migrator(migrations: Array(Migrator.embedded.migrations.prefix(3)))
        try upToThree.migrate(database)
        try database.execute(
            """
            INSERT INTO syncd_runs (id, endpoint, started_at, finished_at, duration_ms, outcome)
            VALUES (7, 'users', 'a', 'b', 0, 'changed');
            INSERT INTO syncd_errors (run_id, endpoint, record_index, record_key, path, column_name, expected, found,
            action, message) VALUES (7, 'users', 3, '8', 'lat', 'lat', 'real', 'string "x"', 'nulled', 'users[id=8]');
            """)
        #expect(throws: SQLiteError.self) {
            try database.execute(
                "INSERT INTO syncd_errors (run_id, endpoint, path, expected, found, action, message) "
                    + "VALUES (7, 'users', '$', 'e', 'f', 'kept', 'm')")
        }

        #expect(try Migrator.embedded.migrate(database).map(\.version) == [4, 5, 6, 7, 8, 9, 10, 11])

        let rows = try database.rows("SELECT run_id, record_key, found, action FROM syncd_errors")
        #expect(rows.map { $0.text("found") } == [#"string "x""#])
        #expect(rows.first?.integer("run_id") == 7 && rows.first?.text("action") == "nulled")
        try database.execute(
            "INSERT INTO syncd_errors (run_id, endpoint, path, expected, found, action, message) "
                + "VALUES (7, 'users', '$', 'e', 'f', 'kept', 'm')")
        try database.execute("DELETE FROM syncd_runs WHERE id = 7")
        #expect(try database.scalar("SELECT count(*) FROM syncd_errors") == .integer(0), "ON DELETE CASCADE holds")
    }
}
