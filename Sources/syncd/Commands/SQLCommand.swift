import ArgumentParser
import SyncCore

struct SQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run read-only SQL against the cache.",
        discussion: """
            The database is opened read-only and every statement that would write, change the schema, \
            ATTACH a file, set a PRAGMA or call a function outside syncd's list (load_extension, fts3_tokenizer…) \
            is refused (exit 2). On PostgreSQL the statements run in a read-only transaction that is rolled back; \
            only SELECT, WITH, VALUES, TABLE, SHOW and EXPLAIN are sent, and functions that act outside the \
            transaction (pg_read_file, pg_terminate_backend, set_config, lo_*…) are refused (exit 2). Record tables \
            are named after their endpoints; syncd's own tables start with syncd_.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("One or more SQL statements.", valueName: "sql"))
    var sql: String

    @Option(help: "How to print the rows.")
    var format: OutputFormat = .table

    func validate() throws {
        guard sql.contains(where: { !$0.isWhitespace && $0 != ";" }) else {
            throw ValidationError("Give at least one SQL statement.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let configuration = try? options.loadConfiguration()
            if options.database == nil, configuration == nil {
                // Without a readable configuration the database cannot be located: say why.
                _ = try options.loadConfiguration()
            }
            let store = options.store(configuration)
            do throws(SyncError) {
                // Before the store is opened: a refused script needs no database.
                try store.checkSQL(sql)
            } catch {
                throw Self.cliError(error)
            }
            let cache = try DatabaseAccess.openForReading(store)
            let results: [SyncCache.SQLRows]
            do throws(SyncError) {
                results = try await cache.sql(sql)
            } catch {
                throw Self.cliError(error)
            }
            var output = ""
            var objects: [String] = []
            for result in results {
                switch format {
                case .table: output += TableText.table(columns: result.columns, rows: result.rows)
                case .csv: output += TableText.csv(columns: result.columns, rows: result.rows)
                case .json, .ndjson: objects += TableText.jsonObjects(columns: result.columns, rows: result.rows)
                }
            }
            switch format {
            case .json: Terminal.standardOutput.write(TableText.jsonArray(objects))
            case .ndjson: Terminal.standardOutput.write(objects.map { $0 + "\n" }.joined())
            case .table, .csv: Terminal.standardOutput.write(output)
            }
        }
    }

    /// A refused script exits 2; one that failed, 1.
    private static func cliError(_ error: SyncError) -> CLIError {
        CLIError(error.description, exitCode: error == .refused ? .refused : .failure)
    }
}
