extension PostgresScript {
    /// Why `syncd sql` refuses the script: its first statement that may not run; nil when all may.
    package var refusal: String? {
        statements.lazy.compactMap(\.refusal).first
    }
}

extension PostgresScript.Command {
    /// The statements `syncd sql` runs on PostgreSQL, by their first word: those that read. Anything else —
    /// `INSERT`, `SET`, `BEGIN`, `COMMIT`, `COPY`, `CALL`, `DO`, `LOCK`, `LISTEN`… — is refused before it is sent.
    /// What these words start is still run inside a read-only transaction, which refuses a write hidden in one
    /// (`WITH … DELETE`, `SELECT … INTO`, `SELECT … FOR UPDATE`, `nextval()`).
    package static let readingWords: Set<String> = ["select", "with", "values", "table", "show", "explain"]

    /// Functions that act outside the transaction — on other sessions, the server's files, its settings,
    /// replication, large objects, notifications, locks that outlive it — refused by name (a read-only transaction
    /// does not stop them all), as the statement spells them (`U&"…"` names decoded). This is the first, cheap check,
    /// for a clear refusal before the server is asked anything; the one that holds is on the server's plan
    /// (``PostgresPlanGuard``), which allows only listed functions. Most of these need a superuser or a granted role
    /// anyway; a read-only role for `syncd sql`'s user is the surest limit.
    package static let refusedFunctions: Set<String> = [
        "set_config", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_promote",
        "pg_switch_wal", "pg_create_restore_point", "pg_notify", "pg_log_backend_memory_contexts", "pg_stat_file",
        "loread", "lowrite", "dblink", "pg_import_system_collations", "pg_start_backup", "pg_stop_backup",
    ]

    /// Prefixes of families of such functions: `pg_read_file`, `pg_ls_dir`, `lo_import`, `dblink_exec`…
    package static let refusedPrefixes = [
        "pg_read_", "pg_ls_", "lo_", "dblink_", "pg_file_", "pg_stat_reset", "pg_replication_", "pg_create_",
        "pg_drop_", "pg_copy_", "pg_wal_replay_", "pg_advisory_", "pg_try_advisory_", "pg_backup_", "pg_logical_",
    ]

    /// Why `syncd sql` refuses the statement, in one sentence; nil when it may run.
    package var refusal: String? {
        guard Self.readingWords.contains(firstWord) else {
            return "syncd sql only reads: \"\(text)\" would write or change the connection"
        }
        if let call = calls.first(where: Self.isRefused) {
            return "syncd sql refuses \(call)(): it acts outside the read-only transaction"
        }
        return nil
    }

    static func isRefused(_ function: String) -> Bool {
        refusedFunctions.contains(function) || refusedPrefixes.contains { function.hasPrefix($0) }
    }
}
