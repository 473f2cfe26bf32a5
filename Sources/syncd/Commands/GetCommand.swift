import ArgumentParser
import SyncCore

struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print one cached record (or a document endpoint's body) exactly as the upstream sent it.",
        discussion: """
            The record's ETag goes to stderr as `ETag: "…"`. With --if-none-match and a matching ETag, \
            nothing is printed and the exit status is 3. A composite key is written `a,b`. With --max-age, an \
            endpoint whose copy is older is synced first (one process at a time: the others then find it fresh); \
            when the sync fails, the stored copy is printed, and `Cache-Status:` on stderr says why it is stale.
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

    @Option(
        name: .customLong("max-age"),
        help: ArgumentHelp(
            "Sync the endpoint first when its copy is older than this (30s, 5m, 1h; 0 always).", valueName: "age"))
    var maxAge: MaxAge?

    /// What the command line asks, without the parser's property wrappers.
    var request: GetRequest {
        GetRequest(paths: options.paths, endpoint: endpoint, id: id, ifNoneMatch: ifNoneMatch)
    }

    func run() async throws {
        try await reportingErrors {
            let request = self.request
            let (configuration, endpoint) = try request.resolved()
            let store = request.paths.store(configuration)
            if let maxAge {
                let status = try await Self.refresh(endpoint, olderThan: maxAge.duration, configuration, store)
                if let status { Terminal.standardError.write("Cache-Status: \(status)\n") }
            }
            try request.checkKey(endpoint)
            let cache = try DatabaseAccess.openForReading(store)
            let answer = try await cache.read { reader in try GetRequest.answer(endpoint, request.id, reader) }
            try request.emit(answer, endpoint)
        }
    }
}

extension GetCommand: ImmediateCommand {
    /// ``GetRequest/runImmediately()``; nothing done for `--max-age`, which may sync.
    func runImmediately() throws -> Bool {
        guard maxAge == nil else { return false }
        return try request.runImmediately()
    }
}

/// `syncd get` without `--max-age`: what it reads and prints, whether the argument parser or ``ShortCommandLine``
/// read the command line.
struct GetRequest: Equatable, Sendable {
    var paths: StorePaths
    var endpoint: String
    var id: String?
    var ifNoneMatch: String?

    /// Reads an SQLite store's record on this thread (``SyncCache/readOnce(_:configuration:_:)``) and prints it;
    /// returns false, having printed nothing, for a PostgreSQL store.
    func runImmediately() throws -> Bool {
        try reportingErrors {
            let (configuration, endpoint) = try resolved()
            let store = paths.store(configuration)
            guard let file = store.file else { return false }
            try checkKey(endpoint)
            try DatabaseAccess.requireDatabase(at: file)
            let answer = try SyncCache.readOnce(store) { reader in try Self.answer(endpoint, id, reader) }
            guard let answer else { return false }
            try emit(answer, endpoint)
            return true
        }
    }

    /// The endpoint, of the configuration, that the command names.
    func resolved() throws -> (SyncConfiguration, SyncEndpoint) {
        let configuration = try paths.loadConfiguration()
        guard let endpoint = configuration.endpoint(named: endpoint) else {
            throw CLIError.unknownEndpoint(self.endpoint)
        }
        return (configuration, endpoint)
    }

    /// What `get` prints: a body and its entity tag.
    struct Answer: Sendable {
        var body: String
        var etag: String
    }

    /// Refuses a collection endpoint without a key (a document endpoint's key is refused by the store, in the read
    /// API's words).
    func checkKey(_ endpoint: SyncEndpoint) throws {
        guard id != nil || endpoint.isDocument else {
            throw CLIError("\"\(endpoint.name)\" is a collection endpoint: give the record's key", exitCode: .usage)
        }
    }

    /// The record with key `id`, or the document when there is no key, as `reader` reads it; nil when there is no
    /// such record, or the document was never synced.
    static func answer(_ endpoint: SyncEndpoint, _ id: String?, _ reader: SyncCache.Reader) throws -> Answer? {
        if let id {
            let key = id.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return try reader.record(from: endpoint.name, key: key).map { Answer(body: $0.json, etag: $0.etag) }
        }
        return try reader.document(from: endpoint.name).map { document in
            Answer(body: String(decoding: document.body, as: UTF8.self), etag: document.etag)
        }
    }

    /// Prints `answer`, unless `--if-none-match` matches its entity tag.
    func emit(_ answer: Answer?, _ endpoint: SyncEndpoint) throws {
        guard let answer else {
            guard let id else { throw CLIError.notSynced(endpoint.name) }
            throw CLIError("\(endpoint.name) has no record with key \(id)", exitCode: .notFound)
        }
        if let ifNoneMatch, SyncCache.etag(answer.etag, isMatchedBy: ifNoneMatch) {
            throw ExitCode.notModified
        }
        Terminal.standardError.write("ETag: \(answer.etag)\n")
        Terminal.standardOutput.write(answer.body.hasSuffix("\n") ? answer.body : answer.body + "\n")
    }
}

extension GetCommand {
    /// `--max-age`: syncs `endpoint` first when its copy is older, holding the state folder's lock of the endpoint
    /// meanwhile, so that scripts asking at once make one request; returns the `Cache-Status` to print, nil when the
    /// copy was young enough.
    static func refresh(
        _ endpoint: SyncEndpoint, olderThan maxAge: Duration, _ configuration: SyncConfiguration, _ store: SyncStore
    ) async throws -> String? {
        let lock = try FileLock(SyncCache.stateDirectory(of: store) + "/.syncd-refresh-\(endpoint.name).lock")
        defer { lock.release() }
        let cache = try SyncRunner.open(configuration, in: store)
        let outcome: SyncCache.Refresh
        do {
            outcome = try await cache.refresh(endpoint.name, olderThan: maxAge, within: endpoint.timeout)
        } catch {
            try? await cache.shutdown()
            throw error
        }
        try await cache.shutdown()
        return outcome.cacheStatus.map(TerminalText.escaped)
    }
}

/// A `--max-age` value: a whole number of ms, s, m, h or d (`30s`, `5m`), or of seconds; at most a year.
struct MaxAge: ExpressibleByArgument {
    var duration: Duration

    init?(argument: String) {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        let unit = units.first { argument.hasSuffix($0.0) && Int64(argument.dropLast($0.0.count)) != nil }
        let digits = unit.map { String(argument.dropLast($0.0.count)) } ?? argument
        guard digits.count <= 12, digits.allSatisfy({ ("0"..."9").contains($0) }), let count = Int64(digits) else {
            return nil
        }
        let (milliseconds, overflow) = count.multipliedReportingOverflow(by: unit?.1 ?? 1000)
        guard !overflow, milliseconds <= 31_536_000_000 else { return nil }
        duration = .milliseconds(milliseconds)
    }
}
