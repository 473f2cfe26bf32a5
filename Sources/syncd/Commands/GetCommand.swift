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
                throw CLIError(StoreError.unknownEndpoint(self.endpoint).description, exitCode: .usage)
            }
            let storage = try DatabaseAccess.openForReading(options.store(configuration)).readStorage
            let body: String
            let etag: String
            if endpoint.isDocument {
                guard id == nil else {
                    throw CLIError(StoreError.notCollection(endpoint.name.name).description, exitCode: .usage)
                }
                guard let document = try await storage.read({ reader in try reader.document(of: endpoint) }) else {
                    throw CLIError(StoreError.notSynced(endpoint.name.name).description, exitCode: .notFound)
                }
                body = String(decoding: document.body, as: UTF8.self)
                etag = document.etag
            } else {
                guard let id else {
                    throw CLIError(StoreError.notDocument(endpoint.name.name).description, exitCode: .usage)
                }
                let key = id.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard let record = try await storage.read({ reader in try reader.record(of: endpoint, key: key) })
                else {
                    throw CLIError("\(endpoint.name.name) has no record with key \(id)", exitCode: .notFound)
                }
                body = record.raw
                etag = record.etag
            }
            if let ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: etag) {
                throw ExitCode.notModified
            }
            Terminal.standardError.write("ETag: \(etag)\n")
            Terminal.standardOutput.write(body.hasSuffix("\n") ? body : body + "\n")
        }
    }
}
