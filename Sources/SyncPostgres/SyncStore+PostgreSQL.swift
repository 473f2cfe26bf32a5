internal import FoundationEssentials
internal import Logging
public import SyncCore
internal import SyncSQLite
import SyncSupport
internal import Synchronization

extension SyncStore {
    /// A PostgreSQL database as the store, for more than one machine: `syncd run` nodes sharing it take turns at its
    /// endpoints.
    ///
    /// ```swift
    /// import SyncCore
    /// import SyncPostgres
    ///
    /// let cache = try SyncCache(store: .postgres(url: "postgresql://syncd@db.example/cache"), configuration: configuration)
    /// ```
    ///
    /// Nothing is opened until a cache opens the store; the URL is read then, and a malformed one is the cache's
    /// ``SyncError/Code/cannotOpen``. The writer and the readers of one cache share one connection pool.
    ///
    /// - Parameters:
    ///   - url: `postgresql://` or `postgres://`, with `sslmode`, `sslrootcert`, `connect_timeout` and
    ///     `application_name` (README › PostgreSQL).
    ///   - passwordFile: For a URL without a password, the file holding it (`password_file` in syncd.toml); else
    ///     `$CREDENTIALS_DIRECTORY/postgres-password` (systemd's `LoadCredential=`), else `PGPASSWORD`.
    public static func postgres(url: String, passwordFile: String? = nil) -> SyncStore {
        SyncStore(
            kind: "PostgreSQL", description: PostgresOpener.describe(url), isShared: true,
            opener: PostgresOpener(url: url, passwordFile: passwordFile))
    }
}

extension SyncStore {
    /// The store a `database` setting names: PostgreSQL for a `postgresql://` or `postgres://` URL, else the SQLite
    /// file at that path. What `syncd` does with `--database` and syncd.toml's `database`.
    ///
    /// - Parameter passwordFile: For a PostgreSQL URL without a password, the file holding it (``postgres(url:passwordFile:)``).
    public static func named(_ location: String, passwordFile: String? = nil) -> SyncStore {
        PostgresLocation.isPostgres(location)
            ? .postgres(url: location, passwordFile: passwordFile) : .sqlite(path: location)
    }
}

/// Opens a PostgreSQL store once, on the first open of a cache's writer or readers, and shares it between them, so
/// that readers see this process's commits at once.
final class PostgresOpener: SyncStore.Opener {
    let url: String
    let passwordFile: String?
    private let opened = Mutex<PostgresStore?>(nil)

    init(url: String, passwordFile: String?) {
        self.url = url
        self.passwordFile = passwordFile
    }

    /// `url` as messages and logs show it: without its password.
    static func describe(_ url: String) -> String {
        (try? PostgresLocation(parsing: url))?.redacted ?? "the PostgreSQL database"
    }

    func openForWriting() throws -> any SyncStorage {
        PostgresSyncStorage(store: try store(), spoolDirectory: Self.spoolDirectory)
    }

    func openForReading(connections: Int) throws -> any ReadStorage {
        PostgresReadStorage(store: try store())
    }

    /// The store migrates as it opens, one node at a time, and does not say what it applied.
    func migrate() throws -> [SchemaMigration]? {
        _ = try store()
        return nil
    }

    func scriptRefusal(_ sql: String) -> SQLScriptError? {
        do {
            _ = try PostgresReadStorage.script(sql)
            return nil
        } catch {
            return error
        }
    }

    /// The store checks its migrations as it opens.
    func appliedMigration() throws -> Int? { nil }

    /// Where fetched bodies wait for their transaction: systemd's `CACHE_DIRECTORY`, else the temporary folder.
    static var spoolDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, !cache.isEmpty {
            return String(cache)
        }
        return FilePathText.temporaryDirectory
    }

    /// The store, opened by the first caller; later callers wait for it (the lock is held while it opens, so that
    /// two opens at once do not leave a second pool open).
    private func store() throws -> PostgresStore {
        try opened.withLock { opened in
            if let opened { return opened }
            let environment = ProcessInfo.processInfo.environment
            let location = try PostgresLocation(
                parsing: url, environment: environment, processUser: ProcessInfo.processInfo.userName)
            let store = try PostgresStore.openWaiting(
                location, password: try PostgresStore.password(file: passwordFile, environment: environment),
                logger: Logger(label: "syncd.postgres"))
            opened = store
            return store
        }
    }
}
