import ArgumentParser
import SyncCore

struct DriftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drift",
        abstract: "Show the schema-drift journal: fields no column maps, paths no record held, types that changed.",
        discussion: """
            Each sync notes three things per endpoint. They are the fields its records hold that no column's path \
            names, the configured paths that no record of the run held, and the configured paths whose values came \
            in a JSON type not seen there before. Each is shown with when it was first and last seen, how many runs saw \
            it, and one value (never for a field whose name says it holds a secret).
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "One endpoint; every endpoint when omitted.")
    var endpoint: String?

    @Option(help: "How to print the journal.")
    var format: OutputFormat = .table

    func run() async throws {
        try await reportingErrors {
            let configuration = try options.loadConfiguration()
            if let endpoint, configuration.endpoint(named: endpoint) == nil {
                throw CLIError.unknownEndpoint(endpoint)
            }
            let cache = try DatabaseAccess.openForReading(options.store(configuration))
            // The whole journal, then the endpoint's part: one configured but never synced has an empty one.
            let journal = try await cache.drift().filter { drift in endpoint.map { drift.endpoint == $0 } ?? true }
            let columns = ["endpoint", "kind", "path", "detail", "first_seen", "last_seen", "count", "example"]
            let rows: [[SyncCache.SQLValue]] = journal.map { drift in
                [
                    .text(drift.endpoint), .text(drift.kind.rawValue), .text(drift.path),
                    drift.detail.map { .text($0) } ?? .null, .text(drift.firstSeen), .text(drift.lastSeen),
                    .integer(Int64(drift.count)), drift.example.map { .text($0) } ?? .null,
                ]
            }
            format.write(columns: columns, rows: rows)
        }
    }
}
