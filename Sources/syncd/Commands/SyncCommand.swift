import ArgumentParser
import FoundationEssentials
import Logging
import SyncCore
import SyncSupport

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Fetch each endpoint once, now, and store what changed.",
        discussion: """
            Every endpoint (or those named) is fetched with a conditional request; a 304 changes nothing \
            but freshness. On a terminal, one line per endpoint reports the status, bytes and records; \
            while an endpoint runs, a live line shows its pages, records, bytes and rate (not with NO_COLOR \
            or TERM=dumb); otherwise only failures are printed. Exits 1 when any endpoint failed; the others still sync.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The endpoints to sync (default: all).", valueName: "endpoint"))
    var endpoints: [String] = []

    func run() async throws {
        try await reportingErrors {
            LoggingSetup.bootstrap()
            let configuration = try options.loadConfiguration()
            let names = try select(configuration)
            let cache = try SyncRunner.open(configuration, in: options.store(configuration))
            let summaries = try await SyncRunner.run(names, in: cache, progress: Terminal.standardError.isTTY)
            try await cache.shutdown()
            if summaries.contains(where: { $0.outcome.isFailure }) { throw ExitCode.failure }
        }
    }

    /// The endpoints named on the command line, else all of them.
    private func select(_ configuration: SyncConfiguration) throws -> [String] {
        guard !endpoints.isEmpty else { return configuration.endpointNames }
        for name in endpoints where configuration.endpoint(named: name) == nil {
            throw CLIError.unknownEndpoint(name)
        }
        return endpoints
    }
}

/// One sync pass with its output, shared by `sync` and `demo`: through ``SyncCache``, the library's front door.
enum SyncRunner {
    /// The cache of `configuration` in `store`, logging as the CLI logs.
    static func open(
        _ configuration: SyncConfiguration, in store: SyncStore, connections: Int = 1,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = LoggingSetup.logger
    ) throws -> SyncCache {
        if let file = store.file {
            let directory = FilePathText.directory(of: file)
            if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
                throw CLIError("the database's folder \(directory) does not exist")
            }
        }
        return try SyncCache(
            store: store, configuration: configuration, connections: connections,
            environment: environment, logger: logger)
    }

    static func run(
        _ endpoints: [String], in cache: SyncCache, progress: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> [SyncSummary] {
        if progress, LiveProgress.isShown(on: .standardError, environment: environment) {
            return try await runShowingProgress(endpoints, in: cache)
        }
        return try await cache.sync(endpoints) { summary in
            if progress {
                Terminal.standardError.write(ReportText.line(summary))
            } else if let error = summary.error {
                Terminal.standardError.write("syncd: \(TerminalText.escaped(error))\n")
            }
        }
    }

    /// How often the live lines are redrawn from what the runs reached, besides the updates they send.
    static let refreshInterval: Duration = .milliseconds(500)

    /// A sync with a live line per running endpoint on standard error, each replaced by its summary line.
    private static func runShowingProgress(_ endpoints: [String], in cache: SyncCache) async throws
        -> [SyncSummary]
    {
        let now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        let lines = LiveProgress(terminal: .standardError, now: now)
        let progress = SyncProgress.Sink(now: now) { lines.show($0) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // Redraws while a page is awaited: the rate moves on, and a count the throttle held back shows.
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: refreshInterval)
                    lines.refresh(progress.running)
                }
            }
            defer {
                group.cancelAll()
                lines.clear()
            }
            return try await cache.sync(endpoints, progress: progress) { summary in
                lines.ended(summary.endpoint, summary: ReportText.line(summary))
            }
        }
    }
}

/// Reports as people read them.
enum ReportText {
    static let shownProblems = 5

    static func line(_ report: SyncSummary) -> String {
        var text: String
        switch report.outcome {
        case .failed, .refused:
            // The error names the endpoint already (it is logged and stored alone): once is enough here.
            var error = report.error ?? "unknown error"
            if error.hasPrefix("\(report.endpoint): ") { error.removeFirst(report.endpoint.count + 2) }
            return "\(report.endpoint): failed: \(TerminalText.escaped(error))\n"
        case .notModified where report.skippedStatus != nil:
            let kept = report.isDocument ? "the document" : counted(report.records, "record")
            text =
                "\(report.endpoint): \(report.skippedStatus ?? 0) skipped (on_status), kept \(kept), "
                + "version \(report.version)"
        case .notModified where report.isDocument:
            text = "\(report.endpoint): 304 not modified, version \(report.version)"
        case .notModified:
            text =
                "\(report.endpoint): 304 not modified, \(counted(report.records, "record")), version \(report.version)"
        case .changed where report.isDocument, .unchanged where report.isDocument:
            text =
                "\(report.endpoint): \(report.httpStatus.map(String.init) ?? "-"), \(ByteCount.format(report.bytes)), document"
            text +=
                report.outcome == .changed ? " → version \(report.version)" : ", unchanged at version \(report.version)"
        case .changed, .unchanged:
            text =
                "\(report.endpoint): \(report.httpStatus.map(String.init) ?? "-"), \(ByteCount.format(report.bytes)), "
            text += counted(report.receivedRecords, "record")
            text += " (\(report.inserted) inserted, \(report.updated) updated, \(report.deleted) deleted"
            text += ", \(report.rejected) rejected)"
            text +=
                report.outcome == .changed ? " → version \(report.version)" : ", unchanged at version \(report.version)"
        }
        if let fanOut = report.fanOut { text += "; \(fanOut)" }
        text += "\n"
        for problem in report.recordProblems.prefix(shownProblems) {
            text += "  \(TerminalText.escaped(problem.summary(endpoint: report.endpoint)))\n"
        }
        if report.problems.count > shownProblems {
            text += "  … and \(report.problems.count - shownProblems) more (see syncd_errors)\n"
        }
        return text
    }

    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
