internal import CSQLite

/// A failed SQLite call: the result code, SQLite's message and the SQL that was running.
///
/// Bound arguments never appear in the description: they may hold record data or secrets.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067); see https://sqlite.org/rescode.html.
    package var extendedCode: Int32
    /// SQLite's own message, from `sqlite3_errmsg`.
    package var message: String
    /// The statement that failed, without its arguments.
    package var sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code: the low byte of the extended one.
    package var code: Int32 { extendedCode & 0xFF }

    package var description: String {
        var text = "SQLite error \(code) (\(Self.name(of: code))): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    /// SQLite's name for a primary result code, so that the message can be searched on sqlite.org.
    package static func name(of code: Int32) -> String {
        switch code {
        case SQLITE_ERROR: "SQLITE_ERROR"
        case SQLITE_INTERNAL: "SQLITE_INTERNAL"
        case SQLITE_PERM: "SQLITE_PERM"
        case SQLITE_ABORT: "SQLITE_ABORT"
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_NOMEM: "SQLITE_NOMEM"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_INTERRUPT: "SQLITE_INTERRUPT"
        case SQLITE_IOERR: "SQLITE_IOERR"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_NOTFOUND: "SQLITE_NOTFOUND"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_PROTOCOL: "SQLITE_PROTOCOL"
        case SQLITE_SCHEMA: "SQLITE_SCHEMA"
        case SQLITE_TOOBIG: "SQLITE_TOOBIG"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: "SQLITE_MISMATCH"
        case SQLITE_MISUSE: "SQLITE_MISUSE"
        case SQLITE_AUTH: "SQLITE_AUTH"
        case SQLITE_RANGE: "SQLITE_RANGE"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        default: "code \(code)"
        }
    }
}
