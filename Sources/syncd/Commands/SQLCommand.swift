import ArgumentParser
import SyncCore

struct SQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run read-only SQL against the cache.",
        discussion: """
            The database is opened read-only and every statement that would write, change the schema, \
            ATTACH a file, set a PRAGMA or call a function outside syncd's list (load_extension, fts3_tokenizer…) \
            is refused (exit 2). Record tables are named \
            after their endpoints; syncd's own tables start with syncd_.
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
            let database = try DatabaseAccess.openForReading(options.databasePath(configuration))
            try database.restrictToReading()
            var output = ""
            var objects: [String] = []
            var columns: [String] = []
            var rows: [[SQLiteValue]] = []
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
                    rows.append((0..<statement.columnCount).map(statement.value(at:)))
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
            switch format {
            case .json: output = TableText.jsonArray(objects)
            case .ndjson: output = objects.map { $0 + "\n" }.joined()
            case .table, .csv: break
            }
            Terminal.standardOutput.write(output)
        }
    }
}
