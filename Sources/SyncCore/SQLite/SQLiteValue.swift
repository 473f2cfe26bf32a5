/// A value in one of SQLite's five storage classes (https://sqlite.org/datatype3.html).
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package init(_ value: ColumnValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as text, the way the sqlite3 shell prints it; `nil` for NULL.
    package var textRepresentation: String? {
        switch self {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(nilLiteral: ()) { self = .null }
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
