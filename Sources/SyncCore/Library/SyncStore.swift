internal import FoundationEssentials
package import SyncPersistence
package import SyncSQLite

/// Where a ``SyncCache`` keeps what it syncs: an SQLite file (``sqlite(path:)``), memory (``memory()``), or a store
/// another library of syncd's provides — SyncPostgres' `.postgres(url:)` — so that a program compiles the clients of
/// the stores it uses and no others.
///
/// ```swift
/// let cache = try SyncCache(store: .sqlite(path: "cache.db"), configuration: configuration)
///
/// import SyncPostgres
/// let shared = try SyncCache(store: .postgres(url: "postgresql://syncd@db.example/cache"), configuration: configuration)
/// ```
///
/// A store is a description: nothing is opened until a cache opens it. The writer and the readers of one cache open
/// the same value, and share what it opened (PostgreSQL's connection pool, the in-memory store's data), so that they
/// see each other's commits at once.
///
/// ## Topics
///
/// - ``sqlite(path:)``
/// - ``memory()``
public struct SyncStore: Sendable, CustomStringConvertible {
    /// The store as messages and logs show it: a path, or a URL without its password.
    public let description: String
    /// The SQLite file, for what only a file has (its folder, its existence before a read); nil for a server.
    public let file: String?
    /// The kind of store, in messages: "SQLite", "PostgreSQL", "in-memory".
    package let kind: String
    /// Whether processes that may run on other machines share the store: then `syncd run` nodes take turns at its
    /// endpoints, and a replica of it may serve the reads. An SQLite file is one process's.
    public let isShared: Bool
    private let opener: any Opener

    /// What a store does when a cache opens it; each kind of store gives its own.
    package protocol Opener: Sendable {
        /// For syncs: opened, created if need be, and brought to this version of syncd.
        func openForWriting() throws -> any SyncStorage
        /// For reads of an existing store, `connections` reads at once; it is never written.
        func openForReading(connections: Int) throws -> any ReadStorage
        /// Opens the store for writing, which creates it or brings it to this version of syncd, and says which
        /// migrations that applied, oldest first; nil for a store that does not tell.
        func migrate() throws -> [SchemaMigration]?
        /// Why the statements of `syncd sql` cannot run, found without the store (a script that does not read, a
        /// statement the store refuses); nil when they may be sent. A store that checks as it runs says nil.
        func scriptRefusal(_ sql: String) -> SQLScriptError?
        /// The newest migration the existing store holds, read without changing it; nil for a store that checks
        /// its migrations as it opens (PostgreSQL).
        func appliedMigration() throws -> Int?
    }

    /// Refuses SQL that would not only read, found without opening the store: what ``SyncCache/sql(_:)`` would
    /// refuse before sending it. A store that checks each statement as it runs it (SQLite) accepts every script here.
    ///
    /// - Throws: ``SyncError/Code/refused``, saying which statement and why.
    public func checkSQL(_ script: String) throws(SyncError) {
        if let refusal = opener.scriptRefusal(script) { throw SyncError(refusal) }
    }

    /// Creates the store, or brings it to this version of syncd: the migrations applied, oldest first; nil for a store
    /// that migrates as it opens without saying what (PostgreSQL, where nodes take turns at it).
    package func migrate() throws -> [SchemaMigration]? {
        try opener.migrate()
    }

    /// Why the statements of `syncd sql` cannot run, found before the store is opened; nil when they may be sent.
    package func scriptRefusal(_ sql: String) -> SQLScriptError? {
        opener.scriptRefusal(sql)
    }

    /// The newest migration the existing store holds; nil for a store that checks as it opens.
    package func appliedMigration() throws -> Int? {
        try opener.appliedMigration()
    }

    /// A store of a kind another library provides (SyncPostgres'), opened by `opener`.
    package init(kind: String, description: String, file: String? = nil, isShared: Bool, opener: some Opener) {
        self.kind = kind
        self.description = description
        self.file = file
        self.isShared = isShared
        self.opener = opener
    }

    /// An SQLite file at `path`, created by the first cache that syncs into it.
    public static func sqlite(path: String) -> SyncStore {
        // A URL given by mistake is not shown whole: it may hold a password.
        let description = DatabaseLocation.isPostgres(path) ? "the PostgreSQL URL given as a path" : path
        return SyncStore(
            kind: "SQLite", description: description, file: path, isShared: false, opener: SQLiteOpener(path: path))
    }

    /// For syncs: opened, created if need be, and brought to this version of syncd.
    ///
    /// - Throws: the store's own error (``SQLiteError``, a server's) when it cannot be opened or migrated.
    package func openForWriting() throws -> any SyncStorage {
        try opener.openForWriting()
    }

    /// For reads of the existing store, with `connections` reads at once; it is never written.
    ///
    /// - Throws: the store's own error when it cannot be opened.
    package func openForReading(connections: Int = ReadConnectionPool.defaultCount) throws -> any ReadStorage {
        try opener.openForReading(connections: connections)
    }

    private struct SQLiteOpener: Opener {
        var path: String

        func openForWriting() throws -> any SyncStorage {
            try refuseURL()
            return try SQLiteSyncStorage.open(path: path)
        }

        func migrate() throws -> [SchemaMigration]? {
            try refuseURL()
            return try SQLiteSyncStorage.migrating(path: path).applied
        }

        /// SQLite's authorizer checks each statement as it is prepared.
        func scriptRefusal(_ sql: String) -> SQLScriptError? { nil }

        func appliedMigration() throws -> Int? {
            try refuseURL()
            return try Migrator.embedded.appliedVersions(Database(path: path, mode: .readOnly)).last ?? 0
        }

        func openForReading(connections: Int) throws -> any ReadStorage {
            try refuseURL()
            guard FileManager.default.fileExists(atPath: path) else {
                throw StoreOpenError("there is no database at \(path)")
            }
            return try SQLiteReadStorage(path: path, count: connections)
        }

        /// A PostgreSQL URL given as a path is said to be one, rather than made a file of that name.
        private func refuseURL() throws {
            guard DatabaseLocation.isPostgres(path) else { return }
            throw StoreOpenError(
                "a PostgreSQL URL is not the path of an SQLite file: open it with SyncStore.postgres(url:) from "
                    + "SyncPostgres")
        }
    }
}

/// A store that cannot be opened, in one sentence that says all (a cache's error is this sentence alone).
package struct StoreOpenError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
