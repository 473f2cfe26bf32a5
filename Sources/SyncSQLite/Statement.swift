internal import CSQLite

/// A prepared statement, reusable: bind, step, read columns, reset.
///
/// Indices are 0-based for columns and 1-based for parameters, as in SQLite's C API.
package final class Statement {
    let pointer: OpaquePointer
    /// The connection, for its errors. A statement the caller keeps also holds it open (`owner`); one the
    /// connection caches for itself does not, which would be a cycle, and lives no longer than it.
    private unowned let database: Database
    private let owner: Database?
    package let sql: String

    init(pointer: OpaquePointer, database: Database, sql: String, holdsDatabase: Bool = true) {
        self.pointer = pointer
        self.database = database
        self.owner = holdsDatabase ? database : nil
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    /// Resets the statement and binds all of its parameters.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the count of arguments is wrong, or when SQLite refuses a value.
    package func bind(_ arguments: [SQLiteValue]) throws(SQLiteError) {
        try reset()
        let expected = Int(sqlite3_bind_parameter_count(pointer))
        guard arguments.count == expected else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "wrong number of arguments: \(arguments.count) given, \(expected) expected",
                sql: sql
            )
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument, at: Int32(offset + 1))
        }
    }

    /// Binds one parameter (1-based).
    package func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(pointer, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(pointer, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(pointer, index, real)
        case .text(let text):
            // The explicit length keeps any NUL inside the text.
            code = text.withCString { characters in
                sqlite3_bind_text64(
                    pointer, index, characters, sqlite3_uint64(text.utf8.count), sqliteTransient, UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    pointer, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(buffer.count),
                    sqliteTransient)
            }
        }
        try check(code)
    }

    /// Binds UTF-8 bytes as TEXT without making a `String` first (the `_raw` of a record, straight from the body).
    package func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else {
            return try bind(SQLiteValue.text(""), at: index)
        }
        let code = sqlite3_bind_text64(
            pointer, index, base, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
        try check(code)
    }

    /// Binds UTF-8 bytes as TEXT without copying them (`SQLITE_STATIC`).
    ///
    /// The caller guarantees that the bytes stay valid until the statement is reset or the parameter
    /// rebound; SQLite reads them in place when the statement steps.
    package func bindTextNoCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else {
            return try bind(SQLiteValue.text(""), at: index)
        }
        let code = sqlite3_bind_text64(pointer, index, base, sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
        try check(code)
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` naming this statement.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(pointer)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.currentError(code: code, sql: sql)
        }
    }

    /// Resets the statement so that it can run again, and clears its bindings.
    package func reset() throws(SQLiteError) {
        // sqlite3_reset returns the error of the last step, which has already been thrown: ignore it here.
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    /// Resets the statement to run again with the values bound so far: for a statement run once per row whose rows
    /// share some values, which are then bound once. A value bound without a copy (``bindTextNoCopy(_:at:)``) must be
    /// rebound before the next step if its bytes have gone.
    package func resetKeepingBindings() {
        // As in reset(): the last step's error has already been thrown.
        sqlite3_reset(pointer)
    }

    /// The number of result columns.
    package var columnCount: Int { Int(sqlite3_column_count(pointer)) }

    /// The name of a result column.
    package func columnName(at index: Int) -> String {
        guard let name = sqlite3_column_name(pointer, Int32(index)) else { return "" }
        return String(cString: name)
    }

    /// The value of a column of the current row.
    package func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(pointer, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(pointer, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(pointer, column))
        case SQLITE_TEXT:
            return .text(text(at: index) ?? "")
        case SQLITE_BLOB:
            return .blob(bytes(at: index))
        default:
            return .null
        }
    }

    /// The text of a column of the current row, `nil` when it is NULL.
    package func text(at index: Int) -> String? {
        let column = Int32(index)
        guard let text = sqlite3_column_text(pointer, column) else { return nil }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The bytes of a column of the current row (TEXT or BLOB), empty when it is NULL.
    package func bytes(at index: Int) -> [UInt8] {
        let column = Int32(index)
        guard let blob = sqlite3_column_blob(pointer, column) else { return [] }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// Calls `body` with the bytes of a column of the current row, valid only inside the call.
    package func withBytes<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let column = Int32(index)
        let blob = sqlite3_column_blob(pointer, column)
        let count = Int(sqlite3_column_bytes(pointer, column))
        return try body(UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : count))
    }

    package func integer(at index: Int) -> Int64 { sqlite3_column_int64(pointer, Int32(index)) }

    package func isNull(at index: Int) -> Bool { sqlite3_column_type(pointer, Int32(index)) == SQLITE_NULL }

    /// The current row, all of its columns.
    package func row() -> Row {
        let count = columnCount
        return Row(columns: (0..<count).map(columnName(at:)), values: (0..<count).map(value(at:)))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code != SQLITE_OK else { return }
        throw database.currentError(code: code, sql: sql)
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
