import ArgumentParser
import FoundationEssentials
import SyncCore
import SyncSupport

struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration, and compare it with the database when there is one.",
        discussion: """
            Prints one line per problem, with the file, the line and the key, and exits 78; prints a summary and \
            exits 0 when the configuration is valid. A [server] token that cannot be read is a problem, as `run` \
            refuses to start without it. With a database, a table whose primary key or primary-key \
            type differs from the configuration is a problem too. Columns still in a table but no longer \
            configured, and secrets (client certificates from systemd credentials too) that cannot be read now, are \
            reported as notes.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let configuration = try options.loadConfiguration()
            let check = try await configuration.check(
                against: options.store(configuration), environment: ProcessInfo.processInfo.environment)
            guard check.problems.isEmpty else {
                throw CLIError(lines: check.problems, exitCode: .configurationInvalid)
            }
            let endpoints = configuration.endpoints
            var text = "\(options.configPath) is valid: \(ReportText.counted(endpoints.count, "endpoint"))\n"
            for endpoint in endpoints {
                let mode = endpoint.upsertOnly ? "incremental" : "snapshot"
                let kind =
                    endpoint.isDocument
                    ? "document" : "\(mode), \(ReportText.counted(endpoint.columns.count, "column"))"
                let method = endpoint.method == .get ? "" : endpoint.method.rawValue + " "
                text +=
                    "  \(endpoint.name): \(kind), every \(DurationText.format(endpoint.interval)), "
                    + "\(method)\(endpoint.redactedURL)"
                if let parent = endpoint.parent {
                    let which = endpoint.children == .changed ? "changed rows" : "each row"
                    text +=
                        ", for \(which) of \(parent) (at most \(endpoint.maxParents) a run, "
                        + "\(endpoint.parentConcurrency) at once)"
                }
                if !endpoint.onStatus.isEmpty {
                    let statuses = endpoint.onStatus.keys.sorted().map { "\($0) \(endpoint.onStatus[$0] ?? .skip)" }
                    text += ", on status " + statuses.joined(separator: ", ")
                }
                text += "\n"
            }
            Terminal.standardOutput.write(text)
            for note in check.notes {
                Terminal.standardError.write("note: \(TerminalText.escaped(note))\n")
            }
        }
    }
}
