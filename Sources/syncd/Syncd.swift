import ArgumentParser
import CMalloc
import Dispatch
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
            Database: --database PATH (or a postgresql:// URL), else `database` in the configuration, else \
            $STATE_DIRECTORY/cache.db, else ./syncd.db.

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
            DriftCommand.self, CheckConfigCommand.self, MigrateCommand.self, InferCommand.self, DemoCommand.self,
        ]
    )

    /// The process-wide settings first (closed standard descriptors, SQLite's, the allocator's), then the command:
    /// on this thread when it can answer at once — read by ``ShortCommandLine`` when the line is one of its usual
    /// forms, else by the parser (``ImmediateCommand``: `--version`, `--help`, an SQLite `get` or `query`) — and
    /// else on Swift concurrency's threads, as `AsyncParsableCommand.main()` runs every command.
    ///
    /// Starting those threads, and the main thread's exit into `dispatch_main()`, cost a short command more than its
    /// read (issue 45: `syncd get` took 11.5 ms against the sqlite3 shell's 1.8).
    static func main() {
        _ = StandardDescriptors.inputWasClosed
        SyncCache.configureProcess()
        limitMallocArenas()
        if let line = ShortCommandLine(Array(CommandLine.arguments.dropFirst())) {
            do {
                if try line.run() { exit() }
            } catch {
                exit(withError: error)
            }
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        if let immediate = command as? any ImmediateCommand {
            do {
                if try immediate.runImmediately() { exit() }
            } catch {
                exit(withError: error)
            }
        }
        let parsed = ParsedCommand(command: command)
        Task {
            do {
                var command = parsed.command
                if var asynchronous = command as? any AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
                exit()
            } catch {
                exit(withError: error)
            }
        }
        dispatchMain()
    }

    /// glibc gives threads that allocate at once arenas of their own, up to eight a core, and keeps what each freed
    /// for that arena: after a cold start of 10,000 endpoints, 187 MB held for 75 MB in use, and the daemon's RSS
    /// stayed at 182 MB. With two arenas it is 126 MB (many-endpoints benchmark, 2026-11-27). An operator's own
    /// `MALLOC_ARENA_MAX` wins.
    static func limitMallocArenas() {
        _ = syncd_limit_malloc_arenas(2)
    }
}

/// A command that answers on the calling thread, without Swift concurrency's threads, when it can.
protocol ImmediateCommand: ParsableCommand {
    /// Runs the command here and returns true; returns false, having done nothing, when this run needs the
    /// asynchronous path (``Syncd/main()`` then runs it there).
    func runImmediately() throws -> Bool
}

/// The parsed command, handed from the main thread to the one task that runs it (the main thread then only waits in
/// `dispatchMain()`, and never touches it again).
private struct ParsedCommand: @unchecked Sendable {
    var command: any ParsableCommand
}
