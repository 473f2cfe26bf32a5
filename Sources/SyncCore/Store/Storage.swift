/// Opens the storage that a `database` setting (or `--database`) names: the one place that chooses an
/// implementation of ``SyncStorage`` and ``ReadStorage``, so that another kind of storage is added here and nowhere
/// else. Today every location is the path of an SQLite file.
package enum Storage {
    /// For syncs: opened, created if need be, and brought to this version of syncd.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened or migrated.
    package static func openForWriting(_ location: String) throws -> any SyncStorage {
        try SQLiteSyncStorage.open(path: location)
    }

    /// For reads of existing storage, with `connections` reads at once; it is never written.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package static func openForReading(_ location: String, connections: Int = ReadConnectionPool.defaultCount)
        throws -> any ReadStorage
    {
        try SQLiteReadStorage(path: location, count: connections)
    }
}
