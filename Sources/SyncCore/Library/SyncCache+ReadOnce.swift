internal import SyncPersistence

extension SyncCache {
    /// Reads an SQLite store once, on the calling thread: one read-only connection, opened for the read and closed
    /// after it, and no thread started — what a program that reads once and exits needs (`syncd get` starts and
    /// answers in a few milliseconds with it). A cache opened with ``init(readingFrom:configuration:connections:)-(SyncStore,_,_)``
    /// keeps a pool of connections and threads instead, for a program that reads often.
    ///
    /// ```swift
    /// let record = try SyncCache.readOnce(.sqlite(path: "cache.db")) { reader in
    ///     try reader.record(from: "users", key: ["42"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to read; it is read here only when it is an SQLite file.
    ///   - configuration: The endpoints the reads name, as the process that syncs them is configured; an endpoint
    ///     it does not name is read as its last sync stored it.
    ///   - body: The reads, given a ``Reader`` that is valid only until `body` returns.
    /// - Returns: What `body` returns; nil for a store that is not an SQLite file (PostgreSQL reads asynchronously:
    ///   open it with ``init(readingFrom:configuration:connections:)-(SyncStore,_,_)``).
    /// - Throws: ``SyncError/Code/cannotOpen`` when the file is missing, is not a database or is not migrated to
    ///   this version of syncd; what `body` throws: the reader's ``SyncError``s as they are, an error of another
    ///   type as ``SyncError/Code/readFailed``.
    public static func readOnce<Result>(
        _ store: SyncStore, configuration: SyncConfiguration? = nil,
        _ body: (Reader) throws -> Result
    ) throws(SyncError) -> Result? {
        guard let path = store.file, !store.isShared else { return nil }
        var opened = false
        do {
            return try SQLiteReadStorage.readOnce(path: path) { reader, migration in
                opened = true
                guard migration == latestMigration else {
                    throw SyncError.cannotOpen(
                        "\(path) is not migrated to this version of syncd: run `syncd migrate` first")
                }
                return try body(Reader(base: reader, configuration: configuration ?? SyncConfiguration()))
            }
        } catch let error as SyncError {
            throw error
        } catch  where !opened {
            throw .cannotOpen("\(path) cannot be opened: \(error)")
        } catch {
            throw SyncError(reading: error)
        }
    }
}
