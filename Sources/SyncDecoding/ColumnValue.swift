/// A value extracted from a record for one column, in one of SQLite's storage classes.
///
/// Booleans are `.integer(0)` or `.integer(1)`; `json` and `timestamp` columns hold `.text`.
package enum ColumnValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}
