import FoundationEssentials
import Logging
import SyncCore
import SyncPostgres
import SyncSystemd

/// Opening the database the way each kind of command needs it.
enum DatabaseAccess {
    /// The store `location` names: a PostgreSQL database for a `postgresql://` URL, else an SQLite file. The one
    /// place the binary chooses a store.
    static func store(_ location: String, passwordFile: String?) -> SyncStore {
        .named(location, passwordFile: passwordFile)
    }

    /// The stored data, read-only: for `query`, `get`, `status`, `drift` and `sql`, which read it as the read API
    /// does.
    static func openForReading(_ store: SyncStore) throws -> SyncCache {
        if let file = store.file {
            try requireDatabase(at: file)
            // PostgreSQL's store checks its migrations as it opens.
            if try SyncCache.appliedMigration(store) != SyncCache.latestMigration {
                throw CLIError("\(file) is not migrated to this version of syncd: run `syncd migrate` first")
            }
        }
        return try SyncCache(readingFrom: store, connections: 1)
    }

    /// Refuses a database file that is not there, saying how to make it.
    static func requireDatabase(at file: String) throws {
        guard FileManager.default.fileExists(atPath: file) else {
            throw CLIError("there is no database at \(file) yet: run `syncd sync` first", exitCode: .notFound)
        }
    }
}

enum LoggingSetup {
    /// stderr, at SYNCD_LOG_LEVEL (default `warning`), one line per message with control characters escaped, as
    /// `syncd run` logs: a value from upstream never reaches the terminal as an escape sequence. Called once per
    /// process.
    static func bootstrap() {
        let environment = ProcessInfo.processInfo.environment
        let setting = LogLevelSetting(environment: environment, default: .warning)
        JournalLogHandler.bootstrap(level: setting.level, environment: environment)
        setting.warnIfRejected(logger)
    }

    static var logger: Logger { Logger(label: "syncd") }
}
