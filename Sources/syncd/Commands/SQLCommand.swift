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
            guard let path = store.file else {
                try await runScript(store)
                return
            }
            let database = try DatabaseAccess.openForReading(path)
            try database.restrictToReading()
            var output = ""
            var objects: [String] = []
            var columns: [String] = []
            var rows: [[SQLCell]] = []
            func flush() {
                guard !columns.isEmpty else { return }
                switch format {
                case .table: output += TableText.table(columns: columns, rows: rows)
                case .csv: output += TableText.csv(columns: columns, rows: rows)
                case .json, .ndjson: objects += TableText.jsonObjects(columns: columns, rows: rows)
                }
                columns = []
                rows = []
            }
            do {
                try database.forEachStatement(sql) { statement, first in
                    if first {
                        flush()
                        columns = (0..<statement.columnCount).map(statement.columnName(at:))
                    }
                    rows.append((0..<statement.columnCount).map { SQLCell(statement.value(at: $0)) })
                }
            } catch let error as SQLiteError where database.refusedFunction(error) != nil {
                throw CLIError(
                    "syncd sql allows only the functions the README lists: \(database.refusedFunction(error) ?? "")() is not one",
                    exitCode: .refused)
            } catch let error as SQLiteError where Database.isNotAuthorized(error) || error.resultCode == 8 {
                throw CLIError(
                    "syncd sql only reads: \"\(error.sql ?? sql)\" would write or change the connection",
                    exitCode: .refused)
            } catch let error as SQLiteError {
                throw CLIError("the SQL failed: \(error.message)", exitCode: .failure)
            }
            flush()
            write(output, objects)
        }
    }

    /// The rows of each statement, as `format` prints them.
    private func write(_ output: String, _ objects: [String]) {
        switch format {
        case .json: Terminal.standardOutput.write(TableText.jsonArray(objects))
        case .ndjson: Terminal.standardOutput.write(objects.map { $0 + "\n" }.joined())
        case .table, .csv: Terminal.standardOutput.write(output)
        }
    }

    /// A database other than SQLite's (PostgreSQL) runs the script itself, in a read-only transaction.
    private func runScript(_ store: SyncStore) async throws {
        // Before connecting: a refused script needs no database.
        if let refusal = store.scriptRefusal(sql) { throw Self.cliError(refusal) }
        let storage = try DatabaseAccess.openStorageForReading(store)
        let results: [SQLResult]
        do {
            results = try await storage.runScript(sql)
        } catch let error as SQLScriptError {
            throw Self.cliError(error)
        }
        var output = ""
        var objects: [String] = []
        // As on SQLite: a statement that returned no rows prints nothing.
        for result in results where !result.rows.isEmpty {
            switch format {
            case .table: output += TableText.table(columns: result.columns, rows: result.rows)
            case .csv: output += TableText.csv(columns: result.columns, rows: result.rows)
            case .json, .ndjson: objects += TableText.jsonObjects(columns: result.columns, rows: result.rows)
            }
        }
        write(output, objects)
    }

    /// A script's refusal as the command exits with it: 2 for a refused statement, 1 for one that failed.
    private static func cliError(_ error: SQLScriptError) -> CLIError {
        switch error {
        case .refused(let sentence): CLIError(sentence, exitCode: .refused)
        case .failed(let sentence): CLIError(sentence, exitCode: .failure)
        }
    }
}
