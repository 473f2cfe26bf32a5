import SyncPersistence
internal import SyncSQLite

extension SyncCache {
    /// A migration of syncd's own tables (`migrations/`), applied once to a store, in order.
    public struct Migration: Sendable, Hashable, CustomStringConvertible {
        /// Its number: migrations apply in this order.
        public let version: Int
        /// Its name: `schema_drift`.
        public let name: String

        /// `0007 schema_drift`-style: the version and the name.
        public var description: String { "\(version) \(name)" }
    }

    /// The newest migration this version of syncd carries: a store at it is up to date.
    public static var latestMigration: Int { Migrator.embedded.latestVersion }

    /// Creates the store, or brings it to this version of syncd, as opening a cache for syncs does; for an
    /// operator's `syncd migrate` before a deployment.
    ///
    /// - Returns: The migrations applied, oldest first (none for a store that was up to date); nil for a store that
    ///   migrates without saying what (PostgreSQL).
    /// - Throws: ``SyncError/Code/cannotOpen`` when the store cannot be opened, is newer than this syncd, or holds a
    ///   migration that differs from this syncd's; the sentence is the store's own.
    public static func migrate(_ store: SyncStore) throws(SyncError) -> [Migration]? {
        do {
            return try store.migrate()?.map { Migration(version: $0.version, name: $0.name) }
        } catch let error as StoreOpenError {
            throw .cannotOpen(error.description)
        } catch {
            // A file's own error names the file; a server's is said as a cache that cannot open it says it.
            throw .cannotOpen(store.file == nil ? "\(store) cannot be used: \(error)" : "\(error)")
        }
    }

    /// The newest migration an existing store holds, read without changing it (``latestMigration`` when it is up to
    /// date); nil for a store that checks its migrations as it opens (PostgreSQL).
    ///
    /// - Throws: ``SyncError/Code/cannotOpen`` when the store cannot be read.
    public static func appliedMigration(_ store: SyncStore) throws(SyncError) -> Int? {
        do {
            return try store.appliedMigration()
        } catch let error as StoreOpenError {
            throw .cannotOpen(error.description)
        } catch {
            throw .cannotOpen("\(error)")
        }
    }
}
