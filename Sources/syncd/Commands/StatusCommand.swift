import ArgumentParser
import FoundationEssentials
import SyncCore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each endpoint's health: last success, last HTTP status, records, version, last error.",
        discussion: """
            An endpoint with a parent (one walk per parent row) says what its last run did per parent. The \
            parents_* columns count the parents walked, not modified, empty, skipped, failed (1 when a parent's \
            walk failed the run) and left for later runs; they are shown when some endpoint has a parent. \
            Where some endpoint's polls follow its upstream's freshness (freshness = "upstream"), next_poll says \
            when the daemon polls each endpoint next, and schedule why: interval, max-age: fresh for 58m, \
            no-cache: min_interval, backoff after 3 failures, Retry-After. \
            While the daemon (syncd run) syncs an endpoint, its row also says since when and how far the sync \
            has come: pages, records read, bytes, and parents walked of their total for an endpoint with a \
            parent. The daemon publishes them in its state folder, where the OAuth2 token times are.
            """
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
            // Where OAuth2 tokens authenticate some endpoints, when each was last renewed and when it expires.
            let tokens = TokenTimes(configuration, store: options.store(configuration))
            // What the last run of each endpoint with a parent did per parent.
            let parents = ParentColumns(configuration)
            // What the daemon syncs now, as it last published it.
            let running = RunningColumns(store: options.store(configuration))
            // Where the upstream's freshness times some endpoint's polls, when each is polled next and why.
            let schedule = ScheduleColumns(configuration)
            let columns =
                ["endpoint", "kind", "records", "version", "last_success", "last_status", "failures", "last_error"]
                + (clustered ? ["node"] : []) + (tokens.isShown ? ["token_renewed", "token_expires"] : [])
                + parents.names + schedule.names + running.names
            let rows: [[SyncCache.SQLValue]] = configuration.endpoints.map { endpoint in
                let name = endpoint.name
                guard let status = statuses[name] else {
                    return [
                        .text(name), .text(endpoint.isDocument ? "document" : "collection"), .integer(0), .integer(0),
                        .text("never"), .null, .integer(0), .null,
                    ] + (clustered ? [.null] : []) + tokens.cells(endpoint) + parents.cells(nil) + schedule.cells(nil)
                        + running.cells(name)
                }
                return [
                    .text(name), .text(status.kind), .integer(Int64(status.recordCount)), .integer(status.version),
                    .text(status.lastSuccessAt ?? "never"), status.lastStatus.map { .integer(Int64($0)) } ?? .null,
                    .integer(Int64(status.consecutiveFailures)), status.lastError.map { .text($0) } ?? .null,
                ] + (clustered ? [status.lastNode.map { .text($0) } ?? .null] : []) + tokens.cells(endpoint)
                    + parents.cells(status) + schedule.cells(status) + running.cells(name)
            }
            format.write(columns: columns, rows: rows)
        }
    }
}

/// When the OAuth2 token of each endpoint that has one was last renewed and when it expires, as the process that
/// syncs recorded them in the state folder (`$STATE_DIRECTORY`, else the database's folder) — never the token.
struct TokenTimes {
    var isShown: Bool
    var directory: String

    init(_ configuration: SyncConfiguration, store: SyncStore) {
        isShown = configuration.endpoints.contains { $0.credential?.isOAuth2 == true }
        directory = Self.directory(store)
    }

    /// The state folder of a process that syncs into `store`: `$STATE_DIRECTORY`, else the database's folder.
    static func directory(_ store: SyncStore) -> String {
        SyncCache.stateDirectory(of: store)
    }

    /// The two cells of `endpoint`, when the columns are shown.
    func cells(_ endpoint: SyncEndpoint) -> [SyncCache.SQLValue] {
        guard isShown else { return [] }
        guard let credential = endpoint.credential,
            let times = SyncCache.tokenTimes(of: credential, stateDirectory: directory)
        else { return [.null, .null] }
        return [.text(times.renewedAt), .text(times.expiresAt)]
    }
}
