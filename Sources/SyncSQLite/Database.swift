internal import CSQLite

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `SQLITE_TRANSIENT` does not import into Swift: SQLite copies a value bound with it before the call returns.
/// https://sqlite.org/c3ref/c_static.html
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection.
///
/// A connection is not `Sendable`: it is owned by a ``DatabaseQueue`` and reached only inside its
/// `read { db in }` / `write { db in }` closures, or by a single-threaded command.
package final class Database {
    package enum Mode: Sendable {
        /// Read and write, creating the file when it is missing; WAL journal.
        case readWrite
        /// Read only (`SQLITE_OPEN_READONLY`): every write fails with `SQLITE_READONLY`.
        case readOnly
    }

    let handle: OpaquePointer
    /// Statements prepared by ``execute(_:_:)``, ``rows(_:_:)`` and ``scalar(_:_:)``, by SQL, for the next use.
    private var statements: [String: CachedStatement] = [:]
    /// Counts the uses of cached statements, for least-recently-used eviction.
    private var statementUses: UInt64 = 0
    /// Statements the cache prepared, as a test sees its reuse.
    private(set) var cachePreparations = 0
    /// Shapes callers checked tables to have, by table, with the schema version they checked them at: while
    /// ``schemaVersion()`` is still that, no connection has changed the schema, and the check need not run again.
    package var checkedShapes: [String: CheckedShape] = [:]

    package struct CheckedShape: Equatable {
        package var schemaVersion: Int64
        /// What the caller checked the table against (its `CREATE TABLE`, say).
        package var shape: String
        /// What else the check depended on (the signature of the columns the last run stored, say).
        package var storedSignature: String?

        package init(schemaVersion: Int64, shape: String, storedSignature: String? = nil) {
            self.schemaVersion = schemaVersion
            self.shape = shape
            self.storedSignature = storedSignature
        }
    }
    package let path: String
    package let mode: Mode
    /// The read-only authorizer's notes (``restrictToReading()``); the authorizer holds an unretained pointer to it.
    var authorizerRefusals: AuthorizerRefusals?
    /// What ``onCommit(_:)`` set; SQLite holds an unretained pointer to it.
    var commitHook: CommitHook?

    /// Opens (or, read-write, creates) the database at `path`, always a plain file path: `file:x.db?nolock=1` is a
    /// file of that name in the current folder, never an SQLite URI, and `:memory:` is a file too.
    ///
    /// A database this creates gets `newDatabasePageSize` (``newDatabasePageSize`` unless a test makes an older one).
    ///
    /// Related SQLite documentation: https://sqlite.org/c3ref/open.html, https://sqlite.org/uri.html
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database.
    package init(
        path: String, mode: Mode = .readWrite, busyTimeoutMilliseconds: Int32 = 5_000,
        newDatabasePageSize: Int = Database.newDatabasePageSize
    ) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        // SQLite would open a FIFO (or a device) and then wait in read() forever, holding up `status`,
        // `check-config` or the daemon's start: anything but a regular file (or nothing yet) is refused first.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a directory"
                case S_IFIFO: "a FIFO"
                case S_IFSOCK: "a socket"
                default: "a device"
                }
            throw SQLiteError(
                extendedCode: SQLITE_CANTOPEN, message: "cannot open \(path): it is \(kind), not a regular file")
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(Self.plainFileName(path), &handle, flags, nil)
        guard let handle else {
            throw SQLiteError(extendedCode: code == SQLITE_OK ? SQLITE_NOMEM : code, message: "cannot open \(path)")
        }
        guard code == SQLITE_OK else {
            // "Whether or not an error occurs when it is opened, resources associated with the database
            // connection handle should be released by passing it to sqlite3_close()" (sqlite.org/c3ref/open.html).
            let error = SQLiteError(
                extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.mode = mode
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Every identifier syncd writes is double-quoted: one that names nothing (a column dropped or renamed behind
        // syncd's back) must fail, not read back as its own name in every row.
        syncd_sqlite3_db_config_dqs_dml(handle, 0)
        // A file that is not a database opens fine and fails on first read: fail now, with SQLITE_NOTADB.
        try execute("SELECT count(*) FROM sqlite_schema")
        if mode == .readWrite {
            // Taken only by a database that has no page yet: an existing one keeps the page size it was made with.
            try execute("PRAGMA page_size = \(newDatabasePageSize)")
            // WAL: readers keep reading a consistent snapshot while a sync writes (https://sqlite.org/wal.html).
            // synchronous=NORMAL is "safe from corruption" in WAL mode; a power loss may roll back the last
            // commits but never leaves a half-written one (https://sqlite.org/pragma.html#pragma_synchronous).
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
            // Defensive mode keeps ordinary SQL from corrupting the file on purpose (https://sqlite.org/c3ref/c_dbconfig_defensive.html).
            syncd_sqlite3_db_config_defensive(handle, 1)
        }
        try execute("PRAGMA foreign_keys = ON")
    }

    /// The page size of the databases syncd creates: 8 KiB, where SQLite's default is 4 KiB.
    ///
    /// A first sync writes each page three times (a WAL frame's header and the page, then the checkpoint's copy), one
    /// system call each, so half as many pages is a tenth less time for 100k records (0.53 s against 0.59 s); a record
    /// of up to about 8 KB (a GitHub issue's JSON is 3–6 KB) stays on its leaf instead of spilling into an overflow
    /// page. 16 KiB was faster still (0.45 s) but doubled the disk of 10,000 small endpoints, whose table and index
    /// take a page each however small, and slowed their cold start by a tenth; at 8 KiB both are as with 4 KiB.
    package static let newDatabasePageSize = 8_192

    /// Settings for a program whose process is its own (the `syncd` binary), made before it opens any database:
    /// - SQLite stops counting the memory it allocates, which otherwise takes a process-wide mutex on each
    ///   allocation (about 5% of a first sync of 100k records here). A library leaves this to the program that embeds
    ///   it: `sqlite3_memory_used` and the soft heap limit need the count.
    /// - A statement journal stays in memory up to ``statementJournalInMemory`` bytes, where SQLite moves it to a
    ///   temporary file past 64 KiB. A step of ``RecordUpsert/largestGroup`` records copies each page it changes
    ///   that the transaction had already changed (about 8 pages of 8 KiB) into it, so that a failing step undoes
    ///   only itself: a first sync of 100k users wrote 23,700 pages to that file, one `pwrite` each. It took 473 ms
    ///   in memory against 520 ms (medians of 15). Crash recovery never reads a statement journal.
    ///
    /// - Returns: Whether SQLite took the settings; not when a database was opened before, which is harmless.
    @discardableResult
    package static func configureProcess() -> Bool {
        let spill = syncd_sqlite3_config_stmtjrnl_spill(statementJournalInMemory)
        let count = syncd_sqlite3_config_memstatus(0)
        return spill == SQLITE_OK && count == SQLITE_OK
    }

    /// The most bytes of a statement's journal held in memory before SQLite moves it to a temporary file: 1 MiB, a
    /// hundred pages, beyond what a step of records changes.
    static let statementJournalInMemory: Int32 = 1 << 20

    /// `path` as SQLite can only read as a file name. SQLite reads a name starting `file:` as a URI when the build or
    /// the process enabled URIs globally ("If URI filename interpretation is enabled, and the filename argument
    /// begins with "file:", then the filename is interpreted as a URI", sqlite.org/c3ref/open.html; Debian's build
    /// does), whatever the flags, and `:memory:` and `""` as temporary databases. A relative path gets `./`, which
    /// names the same file and starts with none of those.
    static func plainFileName(_ path: String) -> String {
        path.hasPrefix("/") ? path : "./" + path
    }

    deinit {
        // close_v2 defers the close until every statement is finalized, so the order of deinits doesn't matter.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    ///
    /// - Throws: ``SQLiteError`` naming the statement that failed.
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        try check(code, sql: sql)
    }

    /// Runs one statement with arguments.
    package func execute(_ sql: String, _ arguments: [SQLiteValue]) throws(SQLiteError) {
        try withCachedStatement(sql) { (statement) throws(SQLiteError) in
            try statement.bind(arguments)
            while try statement.step() {}
        }
    }

    /// Prepares a statement. Keep it for as long as it is reused; it is finalized when released.
    ///
    /// Related SQLite documentation: https://sqlite.org/c3ref/prepare.html
    package func makeStatement(_ sql: String) throws(SQLiteError) -> Statement {
        try makeStatement(sql, holdsDatabase: true)
    }

    private func makeStatement(_ sql: String, holdsDatabase: Bool) throws(SQLiteError) -> Statement {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        try check(code, sql: sql)
        guard let pointer else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        return Statement(pointer: pointer, database: self, sql: sql, holdsDatabase: holdsDatabase)
    }

    /// The rows of a query, each as its values.
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [Row] {
        try withCachedStatement(sql) { (statement) throws(SQLiteError) in
            try statement.bind(arguments)
            var rows: [Row] = []
            while try statement.step() {
                rows.append(statement.row())
            }
            return rows
        }
    }

    /// The first column of the first row, or `nil` when there is no row.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try withCachedStatement(sql) { (statement) throws(SQLiteError) in
            try statement.bind(arguments)
            guard try statement.step() else { return nil }
            return statement.value(at: 0)
        }
    }

    /// Runs `body` with the statement prepared for `sql` earlier, or a new one, which is kept afterwards (reset, so
    /// that it holds no read transaction). A statement in use is out of the cache, so a nested use of the same SQL
    /// prepares its own.
    ///
    /// Preparing is most of a small statement's cost; a poll that gets a 304 runs about ten of them, so with
    /// 10,000 endpoints polled every 10 s the writer spent a sixth of its time preparing the same SQL again.
    private func withCachedStatement<T>(
        _ sql: String, _ body: (Statement) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> T {
        let statement: Statement
        if let cached = statements.removeValue(forKey: sql) {
            statement = cached.statement
        } else {
            statement = try makeStatement(sql, holdsDatabase: false)
            cachePreparations += 1
        }
        defer {
            statement.resetKeepingBindings()
            // Bounded: SQL that names a table (one per endpoint) would otherwise grow it without end. The least
            // recently used goes, so that a run's own table's statements never push out the ones every run uses
            // (emptying the whole cache when full had those prepared again every 64 tables; with 10,000 tables each
            // prepare also looks its table up in SQLite's schema hash, whose chains are then long).
            if statements.count >= Self.cachedStatementLimit,
                let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                statements.removeValue(forKey: oldest)
            }
            statementUses &+= 1
            statements[sql] = CachedStatement(statement: statement, lastUse: statementUses)
        }
        return try body(statement)
    }

    /// Drops the statements kept for reuse.
    func forgetStatements() {
        statements.removeAll()
    }

    private struct CachedStatement {
        var statement: Statement
        var lastUse: UInt64
    }

    /// The most statements ``withCachedStatement(_:_:)`` keeps.
    static let cachedStatementLimit = 64

    /// The rowid of the last inserted row (https://sqlite.org/c3ref/last_insert_rowid.html).
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement (https://sqlite.org/c3ref/changes.html).
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The most parameters one statement may have (`SQLITE_LIMIT_VARIABLE_NUMBER`: 32,766 unless the build says less).
    package var variableLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

    /// Whether a transaction is open (https://sqlite.org/c3ref/get_autocommit.html).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether a table (or view) of that name exists in the main schema (names compare as SQLite compares them,
    /// ASCII case aside).
    ///
    /// A table is looked up by name in the schema SQLite holds in memory
    /// (https://sqlite.org/c3ref/table_column_metadata.html), where a query of `sqlite_schema` would read every
    /// table's row: with 10,000 endpoints, that scan on every sync was a sixth of a cold start. The schema is
    /// brought up to date first, so that a table another connection made or dropped is seen.
    package func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        // Any statement on the main schema checks its cookie and, when another connection changed it, reloads it.
        try execute("SELECT 1 FROM sqlite_schema LIMIT 0")
        let code = sqlite3_table_column_metadata(handle, "main", name, nil, nil, nil, nil, nil, nil)
        switch code {
        case SQLITE_OK: return true
        case SQLITE_ERROR: break  // no such table, or a view
        default: throw currentError(code: code, sql: nil)
        }
        // A view has columns; PRAGMA table_info finds it by name in the schema in memory too.
        return try scalar("SELECT 1 FROM pragma_table_info(?, 'main') LIMIT 1", [.text(name)]) != nil
    }

    /// `PRAGMA schema_version`: it changes with every change to the schema, made by any connection.
    package func schemaVersion() throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try scalar("PRAGMA schema_version") else { return 0 }
        return version
    }

    /// The names of a table's columns, in order.
    package func columnNames(ofTable name: String) throws(SQLiteError) -> [String] {
        try rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)]).compactMap { row in
            row.values.first?.textRepresentation
        }
    }

    /// The one place every C return code goes through.
    func check(_ code: Int32, sql: String?) throws(SQLiteError) {
        guard code != SQLITE_OK else { return }
        throw currentError(code: code, sql: sql)
    }

    func currentError(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return SQLiteError(extendedCode: extended & 0xFF == code & 0xFF ? extended : code, message: message, sql: sql)
    }
}

@available(*, unavailable)
extension Database: Sendable {}
