internal import SyncSQLite

/// What a program that serves a cache to others (`syncd run`'s read API) opens it with.
extension SyncCache {
    /// The reads at once a cache that serves others should allow (`connections:`): one per thread that SQLite reads
    /// run on, which every cache of the process shares. A cache for one program's own reads needs fewer (the
    /// initializers' default is 2).
    public static let servingConnections = ReadConnectionPool.defaultCount
}
