extension Database {
    /// How a transaction takes its lock (https://sqlite.org/lang_transaction.html).
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so a sync never fails half-way with SQLITE_BUSY on its first write.
        case immediate = "IMMEDIATE"

        /// The statement that begins it, a constant: no string is built for each transaction.
        @usableFromInline
        var begin: String {
            switch self {
            case .deferred: "BEGIN DEFERRED TRANSACTION"
            case .immediate: "BEGIN IMMEDIATE TRANSACTION"
            }
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The first error wins: a failed rollback after a thrown error rethrows the body's error.
    ///
    /// - Throws: what `body` throws, or ``SQLiteError`` when BEGIN or COMMIT fails.
    ///
    /// Inlinable so that each module's callers get it specialized for their result, as they did when the store and
    /// its SQLite were one module (a 304 poll runs one transaction).
    @inlinable
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute(kind.begin)
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
