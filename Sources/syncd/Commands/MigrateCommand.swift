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
            // PostgreSQL's store migrates as it opens (one node at a time), and refuses a newer database the same way.
            guard let applied = try SyncCache.migrate(store) else {
                Terminal.standardOutput.write("\(store) is migrated to this version of syncd.\n")
                return
            }
            let latest = SyncCache.latestMigration
            if applied.isEmpty {
                Terminal.standardOutput.write("\(store) is up to date (migration \(latest)).\n")
            } else {
                for migration in applied {
                    Terminal.standardOutput.write("applied migration \(migration)\n")
                }
                Terminal.standardOutput.write("\(store) is at migration \(latest).\n")
            }
        }
    }
}
