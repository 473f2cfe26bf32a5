package import SyncDecoding
internal import SyncSQLite

/// What differs between the SQL of syncd's stores when they read records, so that one compiler
/// (``QueryCompiler``) writes both: placeholders, how text compares and sorts, the pattern operators, booleans, an
/// empty `IN` list, the page's limit, the column that orders rows within a version, and the key's JSON.
///
/// What is alike is not here: identifiers are double-quoted (``SQLIdentifier``) and NULLs are ordered with explicit
/// `NULLS FIRST`/`NULLS LAST` in both.
package enum SQLDialect: Sendable, Hashable, CaseIterable {
    /// SQLite 3.40 and later.
    case sqlite
    /// PostgreSQL 13 and later, with tables shaped as SQLite's (booleans stored as 1 or 0).
    case postgres

    /// The placeholder of the `number`th parameter (from 1): `?1` or `$1`.
    package func placeholder(_ number: Int) -> String {
        switch self {
        case .sqlite: "?\(number)"
        case .postgres: "$\(number)"
        }
    }

    /// A column as it compares and sorts: text byte by byte, as SQLite's BINARY collation does, whatever the
    /// PostgreSQL database's collation.
    package func compared(_ column: ColumnSpec) -> String {
        let name = SQLIdentifier.quote(column.name)
        switch self {
        case .sqlite: return name
        case .postgres: return column.type.isStoredAsText ? name + " COLLATE \"C\"" : name
        }
    }

    /// PostgREST's `like` (case-sensitive) or `ilike` pattern as this dialect's operator matches it.
    package func pattern(_ pattern: String, caseSensitive: Bool) -> ColumnValue {
        switch self {
        case .sqlite where caseSensitive: .text(RecordPattern.glob(pattern))
        case .sqlite, .postgres: .text(RecordPattern.like(pattern))
        }
    }

    /// The condition that `column` matches the pattern (``pattern(_:caseSensitive:)``) bound at `pattern`.
    package func matching(_ column: ColumnSpec, pattern: String, caseSensitive: Bool) -> String {
        let name = SQLIdentifier.quote(column.name)
        switch self {
        case .sqlite:
            // GLOB is SQLite's case-sensitive match; its LIKE ignores the case of ASCII letters.
            return caseSensitive ? "\(name) GLOB \(pattern)" : "\(name) LIKE \(pattern) ESCAPE '\\'"
        case .postgres:
            // `\` is PostgreSQL's default escape; a number is matched as its text.
            let operand = column.type.isStoredAsText ? compared(column) : name + "::text"
            return "\(operand) \(caseSensitive ? "LIKE" : "ILIKE") \(pattern)"
        }
    }

    /// PostgREST's `is.true` or `is.false` on `column`: booleans are stored as 1 or 0.
    package func isBoolean(_ value: Bool, on column: ColumnSpec) -> String {
        let name = SQLIdentifier.quote(column.name)
        switch self {
        case .sqlite: return "\(name) IS \(value ? 1 : 0)"
        case .postgres:
            return column.type.isStoredAsText ? "FALSE" : "\(name) IS NOT DISTINCT FROM \(value ? 1 : 0)"
        }
    }

    /// `column IN (…)` for the placeholders of a list of values, which may be empty.
    package func isIn(_ compared: String, placeholders: [String]) -> String {
        switch self {
        case .postgres where placeholders.isEmpty: "FALSE"
        case .sqlite, .postgres: "\(compared) IN (\(placeholders.joined(separator: ", ")))"
        }
    }

    /// The value bound to `LIMIT`: `nil` is no limit.
    package func limit(_ limit: Int?) -> ColumnValue {
        switch self {
        case .sqlite: .integer(Int64(limit ?? -1))
        case .postgres: limit.map { .integer(Int64($0)) } ?? .null
        }
    }

    /// The column of a record table that orders rows stored in one version (SQLite's rowid; `_row` on PostgreSQL).
    package var rowOrder: String {
        switch self {
        // `_rowid_` rather than `rowid`: a configured column may be called rowid, never _rowid_.
        case .sqlite: "_rowid_"
        case .postgres: "\"_row\""
        }
    }

    /// The column of `syncd_tombstones` that orders deletions in one version.
    package var tombstoneOrder: String {
        switch self {
        case .sqlite: "_rowid_"
        case .postgres: "id"
        }
    }

    /// The expression of a row's key as JSON (``ColumnValue/keyJSON(_:)``'s text), when the database writes it:
    /// `json_quote("id")`, or `json_array("a", "b")` for a composite key. `nil` on PostgreSQL, whose JSON text differs
    /// from SQLite's: the key's columns are selected and written as JSON after reading.
    package func keyJSON(_ keyNames: [String]) -> String? {
        switch self {
        case .sqlite:
            let quoted = keyNames.map(SQLIdentifier.quote)
            return quoted.count == 1 ? "json_quote(\(quoted[0]))" : "json_array(\(quoted.joined(separator: ", ")))"
        case .postgres: return nil
        }
    }
}

extension ColumnType {
    /// Whether the column is stored as text (text, JSON, timestamps), rather than as a number.
    package var isStoredAsText: Bool {
        switch self {
        case .text, .json, .timestamp: true
        case .integer, .boolean, .real: false
        }
    }
}
