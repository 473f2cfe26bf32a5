internal import CSQLite
import SyncSupport

extension Database {
    /// Refuses, on this connection, every statement that is not a read: writes, schema changes, ATTACH,
    /// writing PRAGMAs, transactions' side effects, and every function not in ``SQLFunctionAllowlist``. Used by
    /// `syncd sql` on top of a read-only connection, so that a statement is refused with one sentence before it runs.
    ///
    /// The corresponding C function is `sqlite3_set_authorizer` (https://sqlite.org/c3ref/set_authorizer.html).
    package func restrictToReading() throws(SQLiteError) {
        try execute("PRAGMA query_only = 1")
        let refusals = AuthorizerRefusals()
        authorizerRefusals = refusals
        // The connection keeps `refusals` alive as long as the authorizer can run.
        let code = sqlite3_set_authorizer(handle, readOnlyAuthorizer, Unmanaged.passUnretained(refusals).toOpaque())
        try check(code, sql: nil)
        // The authorizer judges a statement when it is prepared: none prepared before may be reused.
        forgetStatements()
    }

    /// The function `error` refused: one the authorizer denied, or one this SQLite does not have (the sqlite3 shell's
    /// `readfile`, say), which is outside ``SQLFunctionAllowlist`` as much. Nil for any other error.
    package func refusedFunction(_ error: SQLiteError) -> String? {
        if Self.isNotAuthorized(error), let function = authorizerRefusals?.function { return function }
        // SQLite reports an unknown function only in its message: "no such function: NAME".
        let prefix = "no such function: "
        guard authorizerRefusals != nil, error.resultCode == SQLITE_ERROR, error.message.hasPrefix(prefix) else {
            return nil
        }
        let name = error.message.dropFirst(prefix.count).lowercased()
        return SQLFunctionAllowlist.names.contains(name) ? nil : name
    }

    /// Whether an error is the authorizer's refusal (`SQLITE_AUTH`).
    package static func isNotAuthorized(_ error: SQLiteError) -> Bool {
        // A refusal while preparing comes back as SQLITE_ERROR with this message; while stepping, as SQLITE_AUTH.
        error.resultCode == SQLITE_AUTH
            || (error.resultCode == SQLITE_ERROR && error.message.hasPrefix("not authorized"))
    }

    /// Runs each statement of a script in turn, calling `body` for the rows of each.
    ///
    /// - Parameter body: Gets the statement, positioned on a row, for each row.
    package func forEachStatement(_ script: String, _ body: (Statement, _ first: Bool) throws -> Void) throws {
        var utf8 = Array(script.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard var cursor = UnsafePointer(buffer.baseAddress) else { return }
            while cursor.pointee != 0 {
                var pointer: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, -1, &pointer, &tail)
                let text = String(cString: cursor)
                try check(code, sql: String(text.trimmingASCIISpaces))
                guard let tail else { return }
                defer { cursor = tail }
                guard let pointer else { continue }  // only whitespace or a comment
                let sql = sqlite3_sql(pointer).map { String(cString: $0) } ?? text
                let statement = Statement(pointer: pointer, database: self, sql: sql)
                var first = true
                while try statement.step() {
                    try body(statement, first)
                    first = false
                }
            }
        }
    }
}

/// Allows reads only. It captures nothing: it is a C function pointer.
private let readOnlyAuthorizer:
    @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?
    ) -> Int32 = { context, action, first, second, _, _ in
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_UPDATE:
            // Preparing a table-valued pragma (SELECT … FROM pragma_table_info('t')) asks to "update" sqlite_master's
            // columns; the connection is read-only and query_only, so no such update can happen.
            let table = first.map { String(cString: $0) } ?? ""
            return table == "sqlite_master" ? SQLITE_OK : SQLITE_DENY
        case SQLITE_FUNCTION:
            // second is the function's name: load_extension would run arbitrary code, fts3_tokenizer leaks a
            // pointer and takes one, so only the listed functions run.
            let name = second.map { String(cString: $0).lowercased() } ?? ""
            if SQLFunctionAllowlist.names.contains(name) { return SQLITE_OK }
            if let context { Unmanaged<AuthorizerRefusals>.fromOpaque(context).takeUnretainedValue().function = name }
            return SQLITE_DENY
        case SQLITE_PRAGMA:
            // first is the pragma's name, second its argument: only reads of schema facts are allowed.
            let name = first.map { String(cString: $0).lowercased() } ?? ""
            let takesName: Set<String> = [
                "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
            ]
            let bare: Set<String> = [
                "database_list", "table_list", "collation_list", "function_list", "compile_options", "user_version",
                "schema_version", "page_count", "page_size", "freelist_count", "encoding", "data_version",
                "integrity_check", "quick_check", "foreign_key_check", "journal_mode",
            ]
            if takesName.contains(name) { return SQLITE_OK }
            if bare.contains(name), second == nil { return SQLITE_OK }
            return SQLITE_DENY
        default:
            return SQLITE_DENY
        }
    }

/// What the read-only authorizer refused, for the message; owned by the connection it is installed on.
final class AuthorizerRefusals {
    var function: String?
}
