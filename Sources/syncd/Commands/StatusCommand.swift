import ArgumentParser
import SyncCore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each endpoint's health: last success, last HTTP status, records, version, last error."
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "How to print the status.")
    var format: OutputFormat = .table

    func run() async throws {
        try await reportingErrors {
            let configuration = try options.loadConfiguration()
            let cache = try DatabaseAccess.openForReading(options.store(configuration))
            let statuses = Dictionary(
                try await cache.statuses().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            // Where `syncd run` nodes share the database, which of them polled each endpoint last.
            let clustered = statuses.values.contains { $0.lastNode != nil }
            let columns =
                ["endpoint", "kind", "records", "version", "last_success", "last_status", "failures", "last_error"]
                + (clustered ? ["node"] : [])
            let rows: [[SyncCache.SQLValue]] = configuration.endpoints.map { endpoint in
                let name = endpoint.name.name
                guard let status = statuses[name] else {
                    return [
                        .text(name), .text(endpoint.isDocument ? "document" : "collection"), .integer(0), .integer(0),
                        .text("never"), .null, .integer(0), .null,
                    ] + (clustered ? [.null] : [])
                }
                return [
                    .text(name), .text(status.kind), .integer(Int64(status.recordCount)), .integer(status.version),
                    .text(status.lastSuccessAt ?? "never"), status.lastStatus.map { .integer(Int64($0)) } ?? .null,
                    .integer(Int64(status.consecutiveFailures)), status.lastError.map { .text($0) } ?? .null,
                ] + (clustered ? [status.lastNode.map { .text($0) } ?? .null] : [])
            }
            format.write(columns: columns, rows: rows)
        }
    }
}
