/// The type a configured column holds, and how a JSON value becomes it.
///
/// | type | SQLite storage | from JSON (lenient default) |
/// |---|---|---|
/// | `integer` | INTEGER | an integral number; a string holding one (`"12"`) |
/// | `real` | REAL | a number; a string holding one (`"-37.31"`) |
/// | `text` | TEXT | a string; a number or boolean as its literal text |
/// | `boolean` | INTEGER 0/1 | `true`/`false`; `"true"`/`"false"`, `0`/`1` |
/// | `json` | TEXT | any value, its exact bytes as received |
/// | `timestamp` | TEXT, RFC 3339 in UTC, always milliseconds: `2024-05-01T12:00:00.000Z`, `…:00.250Z` | an RFC 3339 string with any offset, a date `2024-05-01`; Unix seconds (or milliseconds) |
///
/// With `strict = true` only the first form of each row is accepted.
public enum ColumnType: String, Sendable, Hashable, CaseIterable {
    /// A whole number (SQLite INTEGER).
    case integer
    /// A floating-point number (SQLite REAL).
    case real
    /// Text (SQLite TEXT). The default.
    case text
    /// `true` or `false`, stored as 1 or 0.
    case boolean
    /// Any JSON value, its exact bytes as received.
    case json
    /// A point in time, stored as RFC 3339 text in UTC with milliseconds.
    case timestamp

    /// The declared type of the SQLite column, which gives it that affinity.
    package var sqliteDeclaration: String {
        switch self {
        case .integer, .boolean: "INTEGER"
        case .real: "REAL"
        case .text, .json, .timestamp: "TEXT"
        }
    }
}
