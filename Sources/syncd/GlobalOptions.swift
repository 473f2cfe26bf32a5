import ArgumentParser
import FoundationEssentials
import SyncCore
import SyncPostgres
import SyncSupport

/// `--config` and `--database`, which every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The SQLite database (overrides the configuration's).", valueName: "path"))
    var database: String?

    /// The paths as given, for code that runs without the argument parser (``ShortCommandLine``).
    var paths: StorePaths { StorePaths(config: config, database: database) }

    /// ``StorePaths/loadConfiguration()``.
    func loadConfiguration() throws -> SyncConfiguration { try paths.loadConfiguration() }

    /// ``StorePaths/databasePath(_:)``.
    func databasePath(_ configuration: SyncConfiguration?) -> String { paths.databasePath(configuration) }

    /// ``StorePaths/store(_:)``.
    func store(_ configuration: SyncConfiguration?) -> SyncStore { paths.store(configuration) }

    /// ``StorePaths/configPath``.
    var configPath: String { paths.configPath }
}

/// `--config` and `--database` as given (nil when not), and what they name.
struct StorePaths: Equatable {
    var config: String?
    var database: String?

    /// The configuration file's path: --config, else /etc/syncd/syncd.toml when it exists, else ./syncd.toml.
    var configPath: String {
        if let config { return config }
        if FileManager.default.fileExists(atPath: "/etc/syncd/syncd.toml") { return "/etc/syncd/syncd.toml" }
        return "syncd.toml"
    }

    /// Loads and validates the configuration.
    ///
    /// - Throws: ``CLIError`` with exit code 78 listing every problem.
    func loadConfiguration() throws -> SyncConfiguration {
        let configuration: SyncConfiguration
        do {
            configuration = try SyncConfiguration(contentsOfFile: configPath)
        } catch {
            throw CLIError(lines: error.problems, exitCode: .configurationInvalid)
        }
        let problems = configuration.postgresProblems()
        guard problems.isEmpty else { throw CLIError(lines: problems, exitCode: .configurationInvalid) }
        return configuration
    }

    /// The database path: --database, the configuration's, $STATE_DIRECTORY/cache.db, ./syncd.db.
    func databasePath(_ configuration: SyncConfiguration?) -> String {
        if let database { return database }
        if let path = configuration?.databasePath { return path }
        if let state = ProcessInfo.processInfo.environment["STATE_DIRECTORY"], !state.isEmpty {
            // systemd may pass several directories separated by colons: the first is ours.
            let first = state.split(separator: ":").first.map(String.init) ?? state
            return FilePathText.appending("cache.db", to: first)
        }
        return "syncd.db"
    }

    /// The store the database path names: a PostgreSQL database for a `postgresql://` URL, else an SQLite file.
    func store(_ configuration: SyncConfiguration?) -> SyncStore {
        DatabaseAccess.store(databasePath(configuration), passwordFile: configuration?.passwordFile)
    }
}
