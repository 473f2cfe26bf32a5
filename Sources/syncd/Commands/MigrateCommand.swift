import ArgumentParser
import SyncCore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create the database, or bring it to this version of syncd.",
        discussion: """
            Applies the migrations this binary carries that the database lacks, each in its own transaction. \
            A database written by a newer syncd, or whose applied migrations differ from this binary's, is refused.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let configuration =
                options.database == nil ? try options.loadConfiguration() : try? options.loadConfiguration()
            let store = options.store(configuration)
            guard let path = store.file else {
                // Its store migrates as it opens (one node at a time), and refuses a newer database the same way.
                let cache = try SyncRunner.open(configuration ?? Configuration(endpoints: []), in: store)
                try await cache.shutdown()
                Terminal.standardOutput.write("\(store) is migrated to this version of syncd.\n")
                return
            }
            let queue = try DatabaseQueue(path: path, mode: .readWrite)
            let applied = try queue.performBlocking { database in
                let applied = try Migrator.embedded.migrate(database)
                try StoredURLRedaction.apply(database)
                return applied
            }
            if applied.isEmpty {
                Terminal.standardOutput.write("\(path) is up to date (migration \(Migrator.embedded.latestVersion)).\n")
            } else {
                for migration in applied {
                    Terminal.standardOutput.write("applied migration \(migration.version) \(migration.name)\n")
                }
                Terminal.standardOutput.write("\(path) is at migration \(Migrator.embedded.latestVersion).\n")
            }
        }
    }
}
