import ArgumentParser
import SyncCore

struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print an endpoint's cached records.",
        discussion: """
            Filters and order use the endpoint's configured columns. `table` and `csv` print those columns; \
            `json` prints the original records exactly as the upstream sent them, in an array; `ndjson` prints \
            one record a line, each line break of a multi-line record (whitespace between tokens) turned into a \
            space.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The endpoint to read.", valueName: "endpoint"))
    var endpoint: String

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp("Keep records whose column equals the value (repeatable).", valueName: "column=value"))
    var conditions: [String] = []

    @Option(
        help: ArgumentHelp(
            "Order by a column; append .desc to reverse, then .nullsfirst or .nullslast (default: the primary key).",
            valueName: "column[.asc|.desc][.nullsfirst|.nullslast]"))
    var order: String?

    // Unconditional, so that `--limit -1` reaches validate() instead of being taken for an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Print at most this many records.", valueName: "n"))
    var limit: Int?

    @Option(help: "How to print the records.")
    var format: OutputFormat = .table

    func validate() throws {
        try request.validate()
    }

    /// What the command line asks, without the parser's property wrappers.
    var request: QueryRequest {
        QueryRequest(
            paths: options.paths, endpoint: endpoint, conditions: conditions, order: order, limit: limit, format: format
        )
    }

    func run() async throws {
        try await reportingErrors {
            let request = self.request
            let (configuration, name) = try request.resolved()
            let cache = try DatabaseAccess.openForReading(request.paths.store(configuration))
            let query = try request.query()
            request.emit(try await cache.read { reader in try reader.records(from: name, query).table })
        }
    }

    static func order(_ text: String) throws -> RecordOrder {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var order = RecordOrder(column: parts.removeFirst())
        if let first = parts.first, first == "asc" || first == "desc" {
            order.descending = first == "desc"
            parts.removeFirst()
        }
        if let first = parts.first, first == "nullsfirst" || first == "nullslast" {
            order.nullsFirst = first == "nullsfirst"
            parts.removeFirst()
        }
        guard !order.column.isEmpty, parts.isEmpty else {
            throw ValidationError(
                "--order takes column[.asc|.desc][.nullsfirst|.nullslast], not \"\(text)\".")
        }
        return order
    }
}

extension QueryCommand: ImmediateCommand {
    /// ``QueryRequest/runImmediately()``.
    func runImmediately() throws -> Bool {
        try request.runImmediately()
    }
}

/// `syncd query`: what it reads and prints, whether the argument parser or ``ShortCommandLine`` read the command
/// line.
struct QueryRequest: Equatable, Sendable {
    var paths: StorePaths
    var endpoint: String
    var conditions: [String] = []
    var order: String?
    var limit: Int?
    var format: OutputFormat = .table

    /// The checks the argument parser runs after parsing (`validate()`).
    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
        if let order { _ = try QueryCommand.order(order) }
        for condition in conditions where !condition.contains("=") {
            throw ValidationError("--where takes column=value, not \"\(condition)\".")
        }
    }

    /// Reads an SQLite store's records on this thread (``SyncCache/readOnce(_:configuration:_:)``) and prints them;
    /// returns false, having printed nothing, for a PostgreSQL store.
    func runImmediately() throws -> Bool {
        try reportingErrors {
            let (configuration, name) = try resolved()
            let store = paths.store(configuration)
            guard let file = store.file else { return false }
            try DatabaseAccess.requireDatabase(at: file)
            let query = try self.query()
            let table = try SyncCache.readOnce(store) { reader in try reader.records(from: name, query).table }
            guard let table else { return false }
            emit(table)
            return true
        }
    }

    /// The configuration, and the name of the endpoint of it that the command names.
    func resolved() throws -> (SyncConfiguration, String) {
        let configuration = try paths.loadConfiguration()
        guard let endpoint = configuration.endpoint(named: endpoint) else {
            throw CLIError.unknownEndpoint(self.endpoint)
        }
        return (configuration, endpoint.name)
    }

    /// The filters, order and limit of the command line.
    func query() throws -> SyncCache.Query {
        let filters = conditions.map { condition in
            let parts = condition.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return RecordFilter.equal(String(parts[0]), String(parts.dropFirst().first ?? ""))
        }
        return SyncCache.Query(
            filters: filters, order: try order.map { [try QueryCommand.order($0)] } ?? [], limit: limit)
    }

    /// Prints `table` in the format asked for.
    func emit(_ table: SyncCache.Table) {
        switch format {
        case .table: Terminal.standardOutput.write(TableText.table(columns: table.columns, rows: table.rows))
        case .csv: Terminal.standardOutput.write(TableText.csv(columns: table.columns, rows: table.rows))
        case .json: Terminal.standardOutput.write(TableText.jsonArray(table.json))
        case .ndjson: Terminal.standardOutput.write(table.json.map { JSONText.singleLine($0) + "\n" }.joined())
        }
    }
}
