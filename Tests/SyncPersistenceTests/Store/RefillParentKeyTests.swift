import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncPersistence
@testable import SyncSQLite

/// A child endpoint's stored rows re-read from `_raw` after its columns changed: a parent column in the primary key
/// is not in the records, so it keeps its value, whatever its type, and whatever the decoder reads after the
/// record's own columns (an incremental deleted flag).
@Suite("store: re-reading a child's rows keeps its parent key columns")
struct RefillParentKeyTests {
    @Test("a timestamp parent column in the key keeps its value; the deleted flag after the own columns is not it")
    func parentKeyKept() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("cache.db"))
        let columns = [
            ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer),
            ColumnSpec(name: "title", path: try JSONPath(parsing: "title"), type: .text),
            // The parent column, typed as its source: a timestamp, second in the key.
            ColumnSpec(name: "pushed", path: .root, type: .timestamp),
        ]
        let table = RecordTable(name: try SQLIdentifier(validating: "issues"), columns: columns, keyColumns: [0, 2])
        try database.execute(table.createSQL)
        try database.execute(
            """
            INSERT INTO issues (id, title, pushed, _raw, _version, _changed_at)
            VALUES (1, 'old', '2026-11-30T12:00:00Z', '{"id": 1, "title": "new", "deleted": false}', 1, '')
            """)
        // The records' decoder: the own columns, then the incremental deleted flag where the parent column stands.
        let decoder = RecordDecoder(
            recordsPath: .root,
            columns: Array(columns.prefix(2)) + [
                ColumnSpec(name: "deleted_flag", path: try JSONPath(parsing: "deleted"), type: .boolean)
            ],
            keyColumns: [0], strict: false)
        #expect(try table.refill(database, decoder: decoder) == 1)
        let row = try #require(try database.rows("SELECT title, pushed FROM issues").first)
        #expect(row.text("title") == "new")
        #expect(row.text("pushed") == "2026-11-30T12:00:00Z")
    }
}
