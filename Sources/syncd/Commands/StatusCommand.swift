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
            let storage = try DatabaseAccess.openStorageForReading(options.store(configuration))
            let states = Dictionary(
                try await storage.read { try $0.states() }.map { ($0.name, $0) },
                uniquingKeysWith: { first, _ in first })
            // Where `syncd run` nodes share the database, which of them polled each endpoint last.
            let clustered = states.values.contains { $0.lastNode != nil }
            let columns =
                ["endpoint", "kind", "records", "version", "last_success", "last_status", "failures", "last_error"]
                + (clustered ? ["node"] : [])
            let rows: [[SQLCell]] = configuration.endpoints.map { endpoint in
                let name = endpoint.name.name
                guard let state = states[name] else {
                    return [
                        .text(name), .text(endpoint.isDocument ? "document" : "collection"), .integer(0), .integer(0),
                        .text("never"), .null, .integer(0), .null,
                    ] + (clustered ? [.null] : [])
                }
                return [
                    .text(name), .text(state.kind), .integer(Int64(state.recordCount)), .integer(state.version),
                    .text(state.lastSuccessAt ?? "never"), state.lastStatus.map { .integer(Int64($0)) } ?? .null,
                    .integer(Int64(state.consecutiveFailures)), state.lastError.map(SQLCell.text) ?? .null,
                ] + (clustered ? [state.lastNode.map(SQLCell.text) ?? .null] : [])
            }
            format.write(columns: columns, rows: rows)
        }
    }
}
