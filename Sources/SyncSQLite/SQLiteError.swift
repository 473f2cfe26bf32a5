internal import CSQLite

/// The SQLite layer's one error: a failed SQLite call, a name that cannot be an SQL identifier, a database this binary
/// must not migrate, or a read refused because too many wait.
///
/// A failed call carries SQLite's result code, its message and the SQL that was running; the other kinds carry one
/// sentence. Bound arguments never appear in the description: they may hold record data or secrets. `==` compares
/// codes only, so the static members match any error of their kind:
///
/// ```swift
/// catch let error as SQLiteError where error == .busy { … }
/// ```
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; compare with the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case sqlite
            case invalidName = "invalid_name"
            case newerDatabase = "newer_database"
            case editedMigration = "edited_migration"
            case busy
        }

        private let base: Base

        /// An SQLite call failed; ``SQLiteError/extendedCode`` says how.
        package static let sqlite = Code(base: .sqlite)
        /// A name from the configuration cannot be an SQL identifier.
        package static let invalidName = Code(base: .invalidName)
        /// The database records a migration this binary does not know: a newer syncd wrote it.
        package static let newerDatabase = Code(base: .newerDatabase)
        /// A migration applied to the database differs from this binary's: it was edited after it shipped.
        package static let editedMigration = Code(base: .editedMigration)
        /// Too many reads already wait for a connection.
        package static let busy = Code(base: .busy)

        /// A fixed string per kind (`sqlite`, `invalid_name`, …), for metric labels.
        package var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    package var code: Code
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067; see https://sqlite.org/rescode.html); 0 when
    /// the failure is not an SQLite call's.
    package var extendedCode: Int32
    /// SQLite's own message, from `sqlite3_errmsg`, or the sentence that says what is wrong.
    package var message: String
    /// The statement that failed, without its arguments.
    package var sql: String?

    /// A failed SQLite call.
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = .sqlite
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.extendedCode = 0
        self.message = message
        self.sql = nil
    }

    /// A failed SQLite call, of any result code.
    package static let sqlite = SQLiteError(.sqlite, "an SQLite call failed")
    /// A name that cannot be an SQL identifier.
    package static let invalidName = SQLiteError(.invalidName, "a name is not a valid SQL identifier")
    /// A database written by a newer syncd.
    package static let newerDatabase = SQLiteError(.newerDatabase, "the database was written by a newer syncd")
    /// A database whose applied migration was edited.
    package static let editedMigration = SQLiteError(.editedMigration, "an applied migration was edited")
    /// A read refused because too many wait.
    package static let busy = SQLiteError(
        .busy, "too many reads are waiting for the database; try again in a moment")

    /// `"Users" is not a valid name: …`.
    static func invalidName(_ name: String) -> SQLiteError {
        SQLiteError(
            .invalidName,
            "\"\(name)\" is not a valid name: use a lowercase letter, then up to 62 lowercase letters, digits or "
                + "underscores")
    }

    /// A database that records migration `version`, which this binary (knowing up to `latest`) does not.
    static func newerDatabase(path: String, version: Int, latest: Int) -> SQLiteError {
        SQLiteError(
            .newerDatabase,
            "\(path) was written by a newer syncd (it has migration \(version), this binary knows up to \(latest)); "
                + "upgrade syncd to use it")
    }

    /// A database to which `migration` was applied with other SQL.
    static func edited(path: String, migration: Migrator.Migration) -> SQLiteError {
        SQLiteError(
            .editedMigration,
            "migration \(migration.versionText)_\(migration.name) differs from the one applied to \(path); an applied "
                + "migration must never be edited: restore it and add a new one")
    }

    /// The primary result code: the low byte of the extended one; 0 when the failure is not an SQLite call's.
    package var resultCode: Int32 { extendedCode & 0xFF }

    /// `SQLITE_SCHEMA`: the schema changed under a statement each time SQLite prepared it again.
    package var isSchemaChange: Bool { code == .sqlite && resultCode == SQLITE_SCHEMA }

    /// `SQLite error 19 (SQLITE_CONSTRAINT): … - while executing `…``, or the sentence for the other kinds.
    package var description: String {
        guard code == .sqlite else { return message }
        var text = "SQLite error \(resultCode) (\(Self.name(of: resultCode))): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    package static func == (lhs: SQLiteError, rhs: SQLiteError) -> Bool { lhs.code == rhs.code }

    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

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
