// A record's values meet SQLite's here, at the storage edge: the SQLite wrapper binds and reads SQLiteValue only.

package import SyncDecoding
package import SyncSQLite

extension SQLiteValue {
    /// A value extracted from a record, to bind.
    package init(_ value: ColumnValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }
}

extension Statement {
    /// Binds a value extracted from a record.
    package func bind(_ value: ColumnValue, at index: Int32) throws(SQLiteError) {
        try bind(SQLiteValue(value), at: index)
    }
}

extension ColumnValue {
    /// A value read back from SQLite; a BLOB (which syncd never writes into a record column) reads as text.
    package init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}
