import ArgumentParser
import SyncCore

/// A failure of a command: one sentence for stderr — or one a line, for a configuration with several problems —
/// and the exit code `--help` documents.
struct CLIError: Error, CustomStringConvertible {
    /// The sentences, one a line.
    var lines: [String]
    var exitCode: ExitCode

    init(_ description: String, exitCode: ExitCode = .failure) {
        self.init(lines: [description], exitCode: exitCode)
    }

    init(lines: [String], exitCode: ExitCode = .failure) {
        self.lines = lines
        self.exitCode = exitCode
    }

    var description: String { lines.joined(separator: "\n") }

    /// A command named an endpoint the configuration does not have (exit 64).
    static func unknownEndpoint(_ name: String) -> CLIError {
        CLIError("there is no endpoint \"\(name)\" in the configuration", exitCode: .usage)
    }

    /// A command read an endpoint that holds nothing yet (exit 4).
    static func notSynced(_ name: String) -> CLIError {
        CLIError("\"\(name)\" has not been synced yet: run `syncd sync \(name)`", exitCode: .notFound)
    }
}

extension ExitCode {
    static let refused = ExitCode(2)
    static let notModified = ExitCode(3)
    static let notFound = ExitCode(4)
    static let usage = ExitCode(64)
    static let configurationInvalid = ExitCode(78)

    /// The exit code of a library failure, by the same rule as the store's.
    init(for error: SyncError) {
        switch error {
        case .notSynced: self = .notFound
        case .unknownEndpoint, .badQuery, .invalidConfiguration: self = .usage
        default: self = .failure
        }
    }
}

/// Runs a command body, printing a failure's sentence to stderr (control characters escaped: a sentence may quote
/// the upstream) and exiting with its code.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw reported(error)
    }
}

/// ``reportingErrors(_:)-(()async throws->Void)``, for a body that runs on the calling thread.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw reported(error)
    }
}

/// Prints `error`'s sentence to stderr, when it has one, and returns what the command exits with.
private func reported(_ error: any Error) -> any Error {
    switch error {
    case let error as CLIError:
        // Each line escaped on its own: the line breaks between problems are syncd's, any inside one are not.
        Terminal.standardError.write("syncd: \(error.lines.map(TerminalText.escaped).joined(separator: "\n"))\n")
        return error.exitCode
    case let error as ExitCode:
        return error
    case let error as SyncError:
        Terminal.standardError.write("syncd: \(TerminalText.escaped(error.description))\n")
        return ExitCode(for: error)
    case let error as ValidationError:
        return error
    default:
        // A store's own error (an SQLite file that is not a database, a server that went away) says what it is.
        Terminal.standardError.write("syncd: \(TerminalText.escaped(String(describing: error)))\n")
        return ExitCode.failure
    }
}
