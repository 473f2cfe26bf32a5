import Foundation
import Logging
import SyncCore
import SyncSystemd

/// Opening the database the way each kind of command needs it.
enum DatabaseAccess {
    /// The stored data, read-only: for `query`, `get` and `status`, which read it as the read API does.
    static func openStorageForReading(_ path: String, passwordFile: String?) throws -> any ReadStorage {
        // PostgreSQL's store checks its migrations as it opens.
        if Storage.kind(for: path) == nil { _ = try openForReading(path) }
        return try SyncCache(readingFrom: path, connections: 1, passwordFile: passwordFile).readStorage
    }

    /// Read-only: for `sql`, which reads SQLite itself, and the checks of the other readers.
    static func openForReading(_ path: String) throws -> Database {
        if let kind = Storage.kind(for: path) {
            throw CLIError(
                "\(kind.describe(path)) is a \(kind.name) database: this command reads SQLite files only (use psql)")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("there is no database at \(path) yet: run `syncd sync` first", exitCode: .notFound)
        }
        let database = try Database(path: path, mode: .readOnly)
        let applied = try Migrator.embedded.appliedVersions(database)
        if applied.last != Migrator.embedded.latestVersion {
            throw CLIError("\(path) is not migrated to this version of syncd: run `syncd migrate` first")
        }
        return database
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
