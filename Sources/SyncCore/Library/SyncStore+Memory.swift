internal import FoundationEssentials
import SyncPersistence
internal import SyncSQLite
internal import Synchronization

extension SyncStore {
    /// A store held in memory, for tests and for programs that want no file: what it syncs lives as long as the
    /// store value does, and goes with it.
    ///
    /// ```swift
    /// let store = SyncStore.memory()
    /// let cache = try SyncCache(store: store, configuration: configuration)
    /// try await cache.sync("users")
    /// let reader = try SyncCache(readingFrom: store)  // reads what `cache` stored
    /// ```
    ///
    /// Nothing is made until a cache opens the store. Every cache opened on this value shares its data, so that
    /// readers see each sync of a writer once it commits, whole; a second call of `memory()` is another, empty store.
    /// Fetched bodies wait in a temporary folder the store makes and removes. Reads, filters, orders and entity tags
    /// behave as an SQLite file's do; `syncd sql` has no SQL to run on it.
    ///
    /// - Returns: A new, empty store.
    public static func memory() -> SyncStore {
        SyncStore(kind: "in-memory", description: "an in-memory store", isShared: false, opener: MemoryOpener())
    }
}

/// Makes a ``MemoryStore`` on the first open of a cache's writer or readers, and hands every later open the same.
final class MemoryOpener: SyncStore.Opener {
    private let opened = Mutex<MemoryStore?>(nil)

    /// The store, made by the first caller.
    ///
    /// - Throws: ``StoreOpenError`` when its temporary folder cannot be made.
    private func store() throws -> MemoryStore {
        try opened.withLock { opened in
            if let opened { return opened }
            let store: MemoryStore
            do {
                store = try MemoryStore()
            } catch {
                throw StoreOpenError(
                    "an in-memory store cannot make its temporary folder for fetched bodies: \(error)"
                )
            }
            opened = store
            return store
        }
    }

    func openForWriting() throws -> any SyncStorage {
        try store()
    }

    func openForReading(connections: Int) throws -> any ReadStorage {
        try store()
    }

    /// A new store is made as this version of syncd writes: there is nothing to apply.
    func migrate() throws -> [SchemaMigration]? {
        _ = try store()
        return []
    }

    func scriptRefusal(_ sql: String) -> SQLScriptError? {
        .refused(MemoryStore.noSQL)
    }

    /// It is made at this version of syncd: it has no migrations to read.
    func appliedMigration() throws -> Int? { nil }
}
