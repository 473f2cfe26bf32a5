import ArgumentParser
import Foundation
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
            var unreachable: String?
            var storage: (any ReadStorage)?
            do {
                storage = try existingStorage(configuration)
            } catch  where options.store(configuration).isShared {
                // A database server that cannot be reached now leaves the configuration valid: said, not failed.
                unreachable = "the database was not checked against the configuration: \(error)"
            }
            let conflicts = serverTokenProblems(configuration) + (try await databaseConflicts(configuration, storage))
            guard conflicts.isEmpty else {
                throw CLIError(lines: conflicts, exitCode: .configurationInvalid)
            }
            var text = "\(options.configPath) is valid: \(configuration.endpoints.count) endpoint"
            text += configuration.endpoints.count == 1 ? "\n" : "s\n"
            for endpoint in configuration.endpoints {
                let kind =
                    endpoint.isDocument
                    ? "document" : "\(endpoint.mode.rawValue), \(ReportText.counted(endpoint.columns.count, "column"))"
                let method = endpoint.method == .get ? "" : endpoint.method.rawValue + " "
                text +=
                    "  \(endpoint.name.name): \(kind), every \(DurationText.format(endpoint.interval)), "
                    + "\(method)\(endpoint.redactedURL)\n"
            }
            Terminal.standardOutput.write(text)
            for note in try await notes(configuration, storage) + (unreachable.map { [$0] } ?? []) {
                Terminal.standardError.write("note: \(TerminalText.escaped(note))\n")
            }
        }
    }

    /// The read API's token, read as `run` reads it at start: one problem naming the key's line when it cannot be.
    private func serverTokenProblems(_ configuration: Configuration) -> [String] {
        let server = configuration.server
        guard let source = server.tokenSource else { return [] }
        do {
            _ = try source.resolve(environment: ProcessInfo.processInfo.environment)
            return []
        } catch {
            let key = server.tokenFile != nil ? "token_file" : "token_credential"
            let problem = ConfigurationError.Problem(
                file: options.configPath, line: server.tokenLine, context: "[server]", message: "\(key): \(error)")
            return [problem.description]
        }
    }

    /// The endpoints whose stored table cannot take the configuration without losing its rows, one line each in
    /// the form of a configuration problem: `syncd.toml:12: [[endpoint]] "users": …`.
    private func databaseConflicts(_ configuration: Configuration, _ storage: (any ReadStorage)?) async throws
        -> [String]
    {
        guard let storage else { return [] }
        let endpoints = configuration.endpoints
        let conflicts = try await storage.read { reader in
            try endpoints.compactMap { endpoint in try reader.incompatibility(with: endpoint).map { (endpoint, $0) } }
        }
        return conflicts.map { endpoint, conflict in
            ConfigurationError.Problem(
                file: options.configPath, line: endpoint.line, context: "[[endpoint]] \"\(endpoint.name.name)\"",
                message: "primary_key: \(conflict)"
            ).description
        }
    }

    /// The database, read-only and as it is (an older one is compared too), when it exists.
    private func existingStorage(_ configuration: Configuration) throws -> (any ReadStorage)? {
        let store = options.store(configuration)
        if let file = store.file, !FileManager.default.fileExists(atPath: file) { return nil }
        return try SyncCache(readingFrom: store, connections: 1).readStorage
    }

    private func notes(_ configuration: Configuration, _ storage: (any ReadStorage)?) async throws -> [String] {
        var notes: [String] = []
        let environment = ProcessInfo.processInfo.environment
        for endpoint in configuration.endpoints {
            if let reason = endpoint.tls.unusableReason(environment: environment) {
                notes.append("\(endpoint.name.name): \(reason)")
            }
            guard let auth = endpoint.auth else { continue }
            var request = FetchRequest(url: endpoint.url)
            do {
                try auth.apply(to: &request, environment: environment)
            } catch {
                notes.append("\(endpoint.name.name): \(error)")
            }
        }
        guard let storage else { return notes }
        let endpoints = configuration.endpoints
        let unconfigured = try await storage.read { reader in
            try endpoints.map { endpoint in (endpoint.name.name, try reader.unconfiguredColumns(of: endpoint)) }
        }
        for (name, columns) in unconfigured {
            for column in columns {
                notes.append(
                    "table \"\(name)\" has a column \"\(column)\" that is no longer configured; "
                        + "it is kept, and no longer filled")
            }
        }
        return notes
    }
}
