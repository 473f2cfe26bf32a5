import Testing

@testable import SyncCore
@testable import SyncSQLite

/// `syncd sql` prints the same cells whichever store ran the SQL: a record column's value, or bytes.
@Suite("store: the cells of SQL results")
struct SQLCellTests {
    @Test("SQLite's values become cells that print as the sqlite3 shell does")
    func fromSQLite() {
        let values: [SQLiteValue] = [.null, .integer(-3), .real(2.5), .text("Zürich"), .blob(Array("ab".utf8))]
        let cells = values.map(SQLCell.init)
        #expect(cells == [.null, .integer(-3), .real(2.5), .text("Zürich"), .blob([97, 98])])
        #expect(cells.map(\.textRepresentation) == values.map(\.textRepresentation))
    }
}
