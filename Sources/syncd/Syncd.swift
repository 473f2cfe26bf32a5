import ArgumentParser
import SyncCore

@main
struct Syncd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncd",
        abstract: "Keeps a local, queryable copy of remote JSON APIs in SQLite.",
        discussion: """
            syncd polls the endpoints of its configuration with conditional requests, stores their records \
            in plain SQLite tables and answers reads from that cache, online or not.

            Configuration: --config PATH, else /etc/syncd/syncd.toml when it exists, else ./syncd.toml.
            Database: --database PATH, else `database` in the configuration, else $STATE_DIRECTORY/cache.db, \
            else ./syncd.db.

            Exit codes:
              0   success
              1   a sync failed, or the database or a file could not be used
              2   refused: `syncd sql` was given a statement that would write
              3   not modified: `syncd get --if-none-match` matched the record's ETag
              4   not found: no record has that key, or the endpoint has no data yet
              64  usage: a command, option or argument is wrong
              78  the configuration is invalid (each problem is printed with its line and key)
            """,
        version: SyncdVersionText.current,
        subcommands: [
            RunCommand.self, SyncCommand.self, StatusCommand.self, QueryCommand.self, GetCommand.self, SQLCommand.self,
            CheckConfigCommand.self, MigrateCommand.self, InferCommand.self, DemoCommand.self,
        ]
    )

    /// SQLite's process-wide settings first, then the command.
    static func main() async {
        SyncCache.configureProcess()
        await main(nil)
    }
}
