import ArgumentParser
import SyncCore

struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print one cached record (or a document endpoint's body) exactly as the upstream sent it.",
        discussion: """
            The record's ETag goes to stderr as `ETag: "…"`. With --if-none-match and a matching ETag, \
            nothing is printed and the exit status is 3. A composite key is written `a,b`.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The endpoint to read.", valueName: "endpoint"))
    var endpoint: String

    @Argument(help: ArgumentHelp("The record's key (none for a document endpoint).", valueName: "id"))
    var id: String?

    @Option(
        name: .customLong("if-none-match"),
        help: ArgumentHelp("Exit 3, printing nothing, when the ETag matches (lists and * allowed).", valueName: "etag"))
    var ifNoneMatch: String?

    func run() async throws {
        try await reportingErrors {
            let configuration = try options.loadConfiguration()
            guard let endpoint = configuration.endpoint(named: endpoint) else {
                throw CLIError.unknownEndpoint(self.endpoint)
            }
            let cache = try DatabaseAccess.openForReading(options.store(configuration))
            let body: String
            let etag: String
            let name = endpoint.name
            if let id {
                // A document has no records: the store refuses the key in the read API's words.
                let key = id.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard let record = try await cache.recordJSON(from: name, key: key) else {
                    throw CLIError("\(name) has no record with key \(id)", exitCode: .notFound)
                }
                body = record.value
                etag = record.etag
            } else if endpoint.isDocument {
                guard let document = try await cache.documentBody(from: name) else { throw CLIError.notSynced(name) }
                body = String(decoding: document.value, as: UTF8.self)
                etag = document.etag
            } else {
                throw CLIError("\"\(name)\" is a collection endpoint: give the record's key", exitCode: .usage)
            }
            if let ifNoneMatch, SyncCache.etag(etag, isMatchedBy: ifNoneMatch) {
                throw ExitCode.notModified
            }
            Terminal.standardError.write("ETag: \(etag)\n")
            Terminal.standardOutput.write(body.hasSuffix("\n") ? body : body + "\n")
        }
    }
}
