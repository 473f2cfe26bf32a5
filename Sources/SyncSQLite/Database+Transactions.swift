extension Database {
    /// How a transaction takes its lock (https://sqlite.org/lang_transaction.html).
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so a sync never fails half-way with SQLITE_BUSY on its first write.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The first error wins: a failed rollback after a thrown error rethrows the body's error.
    ///
    /// - Throws: what `body` throws, or ``SQLiteError`` when BEGIN or COMMIT fails.
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
            try execute("COMMIT TRANSACTION")
        } catch {
            // The body's (or COMMIT's) error is the one that matters; a rollback that fails because
            // SQLite already rolled back (e.g. after SQLITE_FULL) has nothing to add.
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        return result
    }
}
