internal import Foundation
internal import Logging
internal import SyncCore
internal import Synchronization

/// PostgreSQL as syncd's storage: once registered, a `database` setting (or a `SyncCache` path) of
/// `postgresql://…` opens a ``PostgresStore`` in place of an SQLite file.
///
/// ```swift
/// import SyncCore
/// import SyncPostgres
///
/// PostgreSQLStorage.register()
/// let cache = try SyncCache(path: "postgresql://syncd@db.example/cache", configuration: configuration)
/// ```
///
/// The password comes from the URL, else `$CREDENTIALS_DIRECTORY/postgres-password` (systemd's
/// `LoadCredential=`), else `PGPASSWORD`.
public enum PostgreSQLStorage {
    /// Lets ``SyncCache`` (and the `syncd` program) open PostgreSQL URLs. Calling it again changes nothing.
    public static func register() {
        Storage.register(PostgresStorageKind.shared)
    }
}

/// The PostgreSQL ``StorageKind``: one ``PostgresStore`` per URL in a process, shared by its writer and its readers,
/// so that readers see this process's commits at once.
final class PostgresStorageKind: StorageKind {
    static let shared = PostgresStorageKind()

    let name = "PostgreSQL"
    private let stores = Mutex<[String: PostgresStore]>([:])

    func handles(_ location: String) -> Bool {
        PostgresLocation.isPostgres(location)
    }

    func describe(_ location: String) -> String {
        (try? PostgresLocation(parsing: location))?.redacted ?? "the PostgreSQL database"
    }

    func openForWriting(_ location: String, passwordFile: String?) throws -> any SyncStorage {
        PostgresSyncStorage(store: try store(location, passwordFile: passwordFile), spoolDirectory: Self.spoolDirectory)
    }

    func openForReading(_ location: String, connections: Int, passwordFile: String?) throws -> any ReadStorage {
        PostgresReadStorage(store: try store(location, passwordFile: passwordFile))
    }

    /// Where fetched bodies wait for their transaction: systemd's `CACHE_DIRECTORY`, else the temporary folder.
    static var spoolDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, !cache.isEmpty {
            return String(cache)
        }
        return NSTemporaryDirectory()
    }

    private func store(_ text: String, passwordFile: String?) throws -> PostgresStore {
        if let store = stores.withLock({ $0[text] }) { return store }
        let environment = ProcessInfo.processInfo.environment
        let location = try PostgresLocation(
            parsing: text, environment: environment, processUser: ProcessInfo.processInfo.userName)
        let store = try PostgresStore.openWaiting(
            location, password: try PostgresStore.password(file: passwordFile, environment: environment),
            logger: Logger(label: "syncd.postgres"))
        return stores.withLock { stores in
            if let earlier = stores[text] { return earlier }
            stores[text] = store
            return store
        }
    }
}
