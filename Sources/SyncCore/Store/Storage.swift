internal import Synchronization

/// Opens the storage that a `database` setting (or `--database`) names: the one place that chooses an
/// implementation of ``SyncStorage`` and ``ReadStorage``. A path is an SQLite file; another kind of storage (a
/// PostgreSQL URL, from SyncPostgres) is ``register(_:)``ed by the program that links it, so that SyncCore alone
/// compiles no client of it.
package enum Storage {
    /// For syncs: opened, created if need be, and brought to this version of syncd.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened or migrated; the registered kind's error for its own.
    /// - Parameter passwordFile: For a server that asks for a password the location holds none of: the file holding
    ///   it (`password_file`).
    package static func openForWriting(_ location: String, passwordFile: String? = nil) throws -> any SyncStorage {
        if let kind = kind(for: location) { return try kind.openForWriting(location, passwordFile: passwordFile) }
        if let refusal = unregistered(location) { throw refusal }
        return try SQLiteSyncStorage.open(path: location)
    }

    /// For reads of existing storage, with `connections` reads at once; it is never written.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened; the registered kind's error for its own.
    package static func openForReading(
        _ location: String, connections: Int = ReadConnectionPool.defaultCount, passwordFile: String? = nil
    ) throws -> any ReadStorage {
        if let kind = kind(for: location) {
            return try kind.openForReading(location, connections: connections, passwordFile: passwordFile)
        }
        if let refusal = unregistered(location) { throw refusal }
        return try SQLiteReadStorage(path: location, count: connections)
    }

    /// Adds a kind of storage, for the locations it handles. Registering the same kind twice changes nothing.
    package static func register(_ kind: any StorageKind) {
        kinds.withLock { kinds in
            if !kinds.contains(where: { $0.name == kind.name }) { kinds.append(kind) }
        }
    }

    /// The registered kind that handles `location`; nil for an SQLite path.
    package static func kind(for location: String) -> (any StorageKind)? {
        kinds.withLock { kinds in kinds.first { $0.handles(location) } }
    }

    /// `location` as messages show it: a registered kind's without its secrets (a URL's password), a path as it is.
    package static func describe(_ location: String) -> String {
        kind(for: location)?.describe(location) ?? location
    }

    private static let kinds = Mutex<[any StorageKind]>([])

    /// A PostgreSQL URL in a program that did not link SyncPostgres: said so, rather than made a file of that name.
    private static func unregistered(_ location: String) -> StorageOpenError? {
        guard PostgresLocation.isPostgres(location) else { return nil }
        return StorageOpenError(
            "this program cannot use PostgreSQL storage: it was built without SyncPostgres (call "
                + "PostgreSQLStorage.register() before opening)")
    }
}

/// A kind of storage besides SQLite files, which a program registers with ``Storage/register(_:)``.
package protocol StorageKind: Sendable {
    /// What the kind is called in messages: "PostgreSQL".
    var name: String { get }
    /// Whether `location` names storage of this kind.
    func handles(_ location: String) -> Bool
    /// `location` as messages and logs show it: without a secret.
    func describe(_ location: String) -> String
    /// `passwordFile`: the file holding the password, when the location holds none (`password_file`).
    func openForWriting(_ location: String, passwordFile: String?) throws -> any SyncStorage
    func openForReading(_ location: String, connections: Int, passwordFile: String?) throws -> any ReadStorage
}

/// Storage that cannot be opened, in one sentence.
package struct StorageOpenError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
