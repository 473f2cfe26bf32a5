/// A value in one of SQLite's five storage classes (https://sqlite.org/datatype3.html).
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

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
