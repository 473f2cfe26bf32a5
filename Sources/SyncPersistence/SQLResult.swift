package import SyncDecoding
package import SyncSQLite

/// The rows one statement of `syncd sql` returned, with its columns' names.
package struct SQLResult: Sendable, Equatable {
    package var columns: [String]
    package var rows: [[SQLCell]]

    package init(columns: [String], rows: [[SQLCell]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// One value of a row that SQL returned, whichever store ran it, as the CLI prints it: a record column's value, or
/// bytes (SQLite's BLOB, PostgreSQL's `bytea`). PostgreSQL's other values are read into these (a boolean as the text
/// `true` or `false`).
package enum SQLCell: Sendable, Hashable {
    case value(ColumnValue)
    case blob([UInt8])

    package static let null = SQLCell.value(.null)

    package static func integer(_ integer: Int64) -> SQLCell { .value(.integer(integer)) }

    package static func real(_ real: Double) -> SQLCell { .value(.real(real)) }

    package static func text(_ text: String) -> SQLCell { .value(.text(text)) }

    /// The value as text, the way the sqlite3 shell prints it; `nil` for NULL.
    package var textRepresentation: String? {
        switch self {
        case .value(.null): nil
        case .value(.integer(let integer)): String(integer)
        case .value(.real(let real)): String(real)
        case .value(.text(let text)): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension SQLCell {
    /// A value SQLite returned.
    package init(_ value: SQLiteValue) {
        if case .blob(let bytes) = value {
            self = .blob(bytes)
        } else {
            self = .value(ColumnValue(value))
        }
    }
}

/// Why a script of `syncd sql` did not run, in one sentence.
package enum SQLScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It would write, change the connection or call a refused function: nothing of it ran (exit 2).
    case refused(String)
    /// The server refused or failed it (exit 1).
    case failed(String)

    package var description: String {
        switch self {
        case .refused(let sentence), .failed(let sentence): sentence
        }
    }
}
