import Foundation
import Logging
import SyncCore
import SyncTesting
import Synchronization
import Testing

/// Running syncs from one's own program through the public API: endpoints built in Swift or read from TOML.
@Suite("library: SyncCache runs syncs from code")
struct SyncCacheSyncingTests {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }

    static func users(_ files: TemporaryDirectory) throws -> SyncEndpoint {
        try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3])
        return SyncEndpoint(
            name: "users", url: URL(fileURLWithPath: files.file("users.json")).absoluteString, records: "$",
            primaryKey: ["id"],
            columns: [.init("id", type: .integer), .init("name", required: true), .init("active", type: .boolean)],
            interval: .seconds(3600))
    }

    @Test("endpoints built in Swift sync once on demand, and their records read back typed")
    func syncOnce() async throws {
        let files = try TemporaryDirectory()
        let configuration = try SyncConfiguration(endpoints: [try Self.users(files)])
        let syncer = try SyncCache(path: files.file("cache.db"), configuration: configuration)
        let first = try await syncer.sync("users")
        #expect(first.outcome == .changed)
        #expect(first.records == 3 && first.inserted == 3 && first.version == 1)
        #expect(
            first.description == "users: changed, 3 records (3 inserted, 0 updated, 0 deleted, 0 rejected) → version 1")
        let users = try await syncer.records(User.self, from: "users", where: [.equal("active", "true")])
        #expect(users.values.map(\.name) == ["Ann", "Cyd"])
        let again = try await syncer.sync("users")
        #expect(again.outcome == .notModified)
        let unknown = await #expect(throws: SyncError.unknownEndpoint) { try await syncer.sync("nope") }
        #expect(unknown?.description == #"there is no endpoint "nope""#)
        #expect(unknown?.endpoint == "nope" && unknown?.code.description == "unknown_endpoint")
        try await syncer.shutdown()
    }

    @Test("TOML gives every option syncd knows; its errors name the line and the key")
    func toml() async throws {
        let files = try TemporaryDirectory()
        try ReadAPIFixture.write(files, "users.json", users: [1, 2])
        let url = URL(fileURLWithPath: files.file("users.json")).absoluteString
        let configuration = try SyncConfiguration(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(url)"
                records = "$"
                primary_key = ["id"]
                [endpoint.columns]
                id = { path = "id", type = "integer" }

                [[endpoint]]
                name = "flags"
                url = "\(url)"
                """)
        #expect(configuration.endpointNames == ["users", "flags"])
        let syncer = try SyncCache(path: files.file("cache.db"), configuration: configuration)
        let summaries = try await syncer.syncAll()
        #expect(summaries.map(\.endpoint) == ["users", "flags"])
        #expect(summaries.allSatisfy { $0.outcome == .changed })
        try await syncer.shutdown()

        #expect {
            try SyncConfiguration(toml: "[[endpoint]]\nname = \"users\"\nintervall = \"5m\"\n", sourcePath: "app.toml")
        } throws: { error in
            (error as? SyncError) == .invalidConfiguration && "\(error)".contains("app.toml:3")
                && "\(error)".contains("unknown key \"intervall\"")
        }
    }

    @Test("a cache dropped without shutdown(), or whose opening failed, closes its HTTP client itself")
    func droppedWithoutShutdown() async throws {
        let files = try TemporaryDirectory()
        // Each of these made an HTTP client; AsyncHTTPClient traps in a debug build when one is freed still open.
        do {
            let cache = try SyncCache(path: files.file("cache.db"))
            #expect(try await cache.syncAll().isEmpty)
        }
        let missing = #expect(throws: SyncError.cannotOpen) {
            try SyncCache(path: files.file("no-such-folder/cache.db"))
        }
        #expect(missing?.description.contains("no-such-folder/cache.db cannot be used") == true)
    }

    @Test("a cache opened for reading only reads what another cache synced, and refuses to sync or fetch")
    func readingOnly() async throws {
        let files = try TemporaryDirectory()
        let writer = try SyncCache(
            path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [try Self.users(files)]))
        _ = try await writer.sync("users")
        try await writer.shutdown()
        let reader = try SyncCache(readingFrom: files.file("cache.db"))
        #expect(try await reader.records(User.self, from: "users").values.map(\.id) == [1, 2, 3])
        let refused = await #expect(throws: SyncError.readOnly) { try await reader.sync("users") }
        #expect(refused?.description.hasSuffix("was opened for reading only: it cannot sync") == true)
        await #expect(throws: SyncError.readOnly) {
            try await reader.fetch(URL(fileURLWithPath: files.file("users.json")).absoluteString) { $0 }
        }
        try await reader.shutdown()
    }

    @Test(
        "an invalid endpoint built in Swift is refused in one sentence",
        arguments: [
            (SyncEndpoint(name: "Users", url: "https://example.com"), "use a lowercase letter"),
            (
                SyncEndpoint(name: "users", url: "ftp://example.com"),
                "url must be an absolute http://, https:// or file://"
            ),
            // The TOML file's rule, which Swift endpoints once skipped: a host, no white space or control characters.
            (SyncEndpoint(name: "users", url: "https://"), "url must be an absolute http://, https:// or file://"),
            (
                SyncEndpoint(name: "users", url: "https://example.com/u\r\nX-Evil: 1"),
                "url must be an absolute http://, https:// or file://"
            ),
            (
                SyncEndpoint(name: "users", url: "file://relative"),
                "url must be an absolute http://, https:// or file://"
            ),
            (
                SyncEndpoint(
                    name: "users", url: "https://example.com", records: "$", primaryKey: ["id", "id"],
                    columns: [.init("id")]),
                "primary_key names \"id\" twice"
            ),
            (
                SyncEndpoint(name: "users", url: "https://example.com", headers: ["Bad Name": "x"]),
                "headers: \"Bad Name\" is not a valid header name"
            ),
            (
                SyncEndpoint(name: "users", url: "https://example.com", headers: ["X-Token": "t\r\nX-Evil: 1"]),
                "headers: the value of \"X-Token\" must not contain CR, LF or NUL"
            ),
            (
                SyncEndpoint(name: "users", url: "https://example.com", records: "$"),
                "missing \"primary_key\": an endpoint with \"records\" needs one"
            ),
            (
                SyncEndpoint(name: "users", url: "https://example.com", records: "$", primaryKey: ["id"]),
                "primary_key names \"id\", which is not in [endpoint.columns]"
            ),
        ])
    func refusals(endpoint: SyncEndpoint, sentence: String) {
        #expect {
            try SyncConfiguration(endpoints: [endpoint])
        } throws: { error in
            "\(error)".hasPrefix("endpoint \"\(endpoint.name)\": ") && "\(error)".contains(sentence)
        }
    }

    /// The messages a ``RecordingLogHandler`` kept, with their endpoint.
    final class Recorded: Sendable {
        let messages = Mutex<[(message: String, endpoint: String?)]>([])
    }

    /// Keeps every message logged through it.
    struct RecordingLogHandler: LogHandler {
        let recorded: Recorded
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorded.messages.withLock { $0.append(("\(event.message)", merged["endpoint.name"].map { "\($0)" })) }
        }
    }

    @Test("the cache logs its syncs through the logger it is given, never one of its own")
    func logger() async throws {
        let files = try TemporaryDirectory()
        let recorded = Recorded()
        let handler = RecordingLogHandler(recorded: recorded)
        let broken = SyncEndpoint(
            name: "missing", url: URL(fileURLWithPath: files.file("missing.json")).absoluteString, records: "$",
            primaryKey: ["id"], columns: [.init("id", type: .integer)])
        let syncer = try SyncCache(
            path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [broken]),
            logger: Logger(label: "embedder") { _ in handler })
        let summary = try await syncer.sync("missing")
        #expect(summary.outcome == .failed)
        let messages = recorded.messages.withLock { $0 }
        #expect(messages.contains { $0.message == "Sync failed" && $0.endpoint == "missing" })
        try await syncer.shutdown()
    }

    @Test(
        "a sync by the cache wakes its change streams at once, without waiting for their next look",
        .timeLimit(.minutes(1)))
    func inProcessFeed() async throws {
        let files = try TemporaryDirectory()
        let syncer = try SyncCache(
            path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [try Self.users(files)]))
        let first = try await syncer.sync("users")
        // An hour between looks: only the cache's signal can deliver the change within the time limit.
        var changes = syncer.changeSets("users", since: first.version, every: .seconds(3600))
            .makeAsyncIterator()
        try ReadAPIFixture.write(files, "users.json", users: [1, 2], renamed: [2: "Rob"], generation: 1)
        _ = try await syncer.sync("users")
        let change = try #require(try await changes.next())
        #expect(change.changed.map(\.key) == ["2"])
        #expect(change.deleted == ["3"])
        try await syncer.shutdown()
    }

    @Test("run() keeps the endpoints fresh until its task is cancelled", .timeLimit(.minutes(1)))
    func scheduler() async throws {
        let files = try TemporaryDirectory()
        let configuration = try SyncConfiguration(endpoints: [try Self.users(files)])
        let syncer = try SyncCache(path: files.file("cache.db"), configuration: configuration)
        let (summaries, continuation) = AsyncStream<SyncSummary>.makeStream()
        let running = Task { try await syncer.run(onSync: { continuation.yield($0) }) }
        var iterator = summaries.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.outcome == .changed)
        running.cancel()
        try await running.value
        #expect(try await syncer.records(User.self, from: "users").values.count == 3)
        try await syncer.shutdown()
    }
}
