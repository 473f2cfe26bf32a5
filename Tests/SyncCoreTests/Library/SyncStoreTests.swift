import Foundation
import SampleUpstream
import SyncCore
import SyncPostgres
import SyncTesting
import Testing

/// Choosing where a cache keeps its data: the store is passed to `SyncCache`, and a store of another library is that
/// library's `SyncStore` (SyncPostgres' `.postgres(url:)`); nothing is registered.
@Suite("library: SyncCache(store:) takes the store it is given")
struct SyncStoreTests {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }

    @Test("an SQLite store syncs, and a reader of the same store sees what it stored")
    func sqlite() async throws {
        let files = try TemporaryDirectory()
        let configuration = try SyncConfiguration(endpoints: [try SyncCacheSyncingTests.users(files)])
        let store = SyncStore.sqlite(path: files.file("cache.db"))
        #expect(store.description == files.file("cache.db"))
        let syncer = try SyncCache(store: store, configuration: configuration)
        #expect(try await syncer.sync("users").records == 3)
        let reader = try SyncCache(readingFrom: store)
        #expect(try await reader.records(User.self, from: "users").values.map(\.id) == [1, 2, 3])
        try await syncer.shutdown()
    }

    @Test(
        "an in-memory store syncs from a real upstream; a reader of the same store reads it, and revalidates by its tag"
    )
    func memory() async throws {
        try await withTestUpstream { upstream in
            let json = (1...4).map { #"{"id": \#($0), "name": "user \#($0)"}"# }
            upstream.setJSON("/users", "[" + json.reversed().joined(separator: ",") + "]", etag: "\"u1\"")
            let endpoint = SyncEndpoint(
                name: "users", url: upstream.url("/users"), records: "$", primaryKey: ["id"],
                columns: [.init("id", type: .integer), .init("name")], interval: .seconds(3600))
            let store = SyncStore.memory()
            #expect(store.description == "an in-memory store")
            let syncer = try SyncCache(store: store, configuration: SyncConfiguration(endpoints: [endpoint]))
            #expect(try await syncer.sync("users").records == 4)
            let reader = try SyncCache(readingFrom: store)
            let users = try await reader.records(User.self, from: "users", order: [.descending("id")], limit: 2)
            #expect(users.values.map(\.id) == [4, 3])
            let one = try #require(try await reader.record(User.self, from: "users", key: "2"))
            #expect(one.value.name == "user 2")

            // A 304 moves nothing: the tags still hold.
            #expect(try await syncer.sync("users").outcome == .notModified)
            #expect(upstream.requests.last?.header("If-None-Match") == "\"u1\"")
            #expect(try await reader.isModified("users", since: users.etag) == false)
            #expect(try await reader.isModified("users", since: one.etag) == false)

            upstream.setJSON("/users", "[" + json.dropLast().joined(separator: ",") + "]", etag: "\"u2\"")
            #expect(try await syncer.sync("users").deleted == 1)
            #expect(try await reader.isModified("users", since: users.etag) == true)
            #expect(try await reader.records(User.self, from: "users").values.map(\.id) == [1, 2, 3])

            // Another memory() is another store, which has synced nothing.
            await #expect(throws: SyncError.self) {
                try await SyncCache(readingFrom: .memory()).records(User.self, from: "users")
            }
            #expect(SyncStore.memory().scriptRefusal("SELECT 1")?.description.contains("in-memory") == true)
            try await syncer.shutdown()
        }
    }

    @Test("a PostgreSQL URL given as a path is refused in one sentence, without its password")
    func urlAsPath() throws {
        let url = "postgresql://syncd:hunter2@127.0.0.1:1/cache"
        let writing = #expect(throws: SyncError.cannotOpen) { try SyncCache(path: url) }
        let reading = #expect(throws: SyncError.cannotOpen) { try SyncCache(readingFrom: url) }
        for error in [writing, reading] {
            let text = error?.description ?? ""
            #expect(text.contains("PostgreSQL URL") && !text.contains("hunter2"), "\(text)")
        }
        // Nothing named after the URL appears where a relative path would have been made.
        #expect(!FileManager.default.fileExists(atPath: "postgresql:"))
    }

    @Test("a PostgreSQL store is described without its password, and one it cannot reach fails the open")
    func postgresUnreachable() throws {
        let store = SyncStore.postgres(url: "postgresql://syncd:hunter2@127.0.0.1:1/cache?connect_timeout=2")
        #expect(store.description == "postgresql://syncd@127.0.0.1:1/cache")
        let error = #expect(throws: SyncError.cannotOpen) { try SyncCache(store: store) }
        #expect(
            error?.description.contains("postgresql://syncd@127.0.0.1:1/cache") == true, "\(String(describing: error))")
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test("migrate creates a store and says what it applied; a second time, nothing; a server migrates silently")
    func migrate() throws {
        let files = try TemporaryDirectory()
        let store = SyncStore.sqlite(path: files.file("cache.db"))
        let first = try #require(try SyncCache.migrate(store))
        #expect(first.map(\.version) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(first.last?.version == SyncCache.latestMigration)
        #expect(first.first?.description.hasPrefix("1 ") == true)
        #expect(try SyncCache.migrate(store) == [])
        let refused = #expect(throws: SyncError.cannotOpen) {
            try SyncCache.migrate(.postgres(url: "postgresql://syncd:hunter2@127.0.0.1:1/cache?connect_timeout=2"))
        }
        #expect(refused?.description.contains("hunter2") == false)
    }

    @Test("a PostgreSQL store reads and refuses syncd sql's statements before it connects; SQLite checks as it runs")
    func scriptRefusal() throws {
        let unreachable = SyncStore.postgres(url: "postgresql://syncd@127.0.0.1:1/cache")
        #expect(unreachable.scriptRefusal("SELECT 1; SELECT 2") == nil)
        guard case .refused(let sentence)? = unreachable.scriptRefusal("DELETE FROM users") else {
            Issue.record("a DELETE was not refused")
            return
        }
        #expect(sentence.contains("DELETE"), "\(sentence)")
        guard case .failed? = unreachable.scriptRefusal("SELECT 'unterminated") else {
            Issue.record("an unterminated string was not a failure")
            return
        }
        #expect(SyncStore.sqlite(path: "cache.db").scriptRefusal("DELETE FROM users") == nil)
    }

    @Test(
        "a PostgreSQL store syncs, and a reader of the same store sees what it stored",
        .enabled(if: PostgresTestCluster.isAvailable))
    func postgres() async throws {
        let files = try TemporaryDirectory()
        let url = try await PostgresTestCluster.shared().makeDatabase()
        let configuration = try SyncConfiguration(endpoints: [try SyncCacheSyncingTests.users(files)])
        let syncer = try SyncCache(store: .postgres(url: url), configuration: configuration)
        #expect(try await syncer.sync("users").records == 3)
        #expect(try await syncer.records(User.self, from: "users").values.map(\.name) == ["Ann", "Bob", "Cyd"])
        let reader = try SyncCache(readingFrom: .postgres(url: url), connections: 1)
        #expect(try await reader.records(User.self, from: "users").values.count == 3)
        try await syncer.shutdown()
    }
}

/// One HTTP client in a process: the cache's, shared with the program's typed fetches, or the program's, given to the
/// cache.
@Suite("library: SyncCache shares one HTTP client with the program")
struct SyncCacheClientTests {
    struct User: Decodable, Sendable {
        var id: Int
    }

    @Test("a client given to the cache is the one it fetches with, and stays open after the cache shuts down")
    func givenClient() async throws {
        let files = try TemporaryDirectory()
        let demo = DemoUpstream(userCount: 3)
        let server = try await LoopbackHTTPServer.start { demo.handle($0) }
        let client = APIClient()
        let endpoint = SyncEndpoint(
            name: "users", url: server.baseURL + "/users", records: "$", primaryKey: ["id"],
            columns: [.init("id", type: .integer)])
        let cache = try SyncCache(
            store: .sqlite(path: files.file("cache.db")), configuration: try SyncConfiguration(endpoints: [endpoint]),
            client: client)
        #expect(cache.client === client)
        #expect(try await cache.sync("users").records == 3)
        try await cache.shutdown()
        let users = try await client.fetch(APIRequest(baseURL: server.baseURL, path: "/users"), as: [User].self)
        #expect(users.map(\.id) == [1, 2, 3], "the program's client was not closed by the cache")
        try await client.shutdown()
        try await server.shutdown()
    }

    @Test("the cache's own client serves the program's fetches; a reading cache makes one only when asked")
    func ownClient() async throws {
        let files = try TemporaryDirectory()
        let demo = DemoUpstream(userCount: 2)
        let server = try await LoopbackHTTPServer.start { demo.handle($0) }
        let cache = try SyncCache(store: .sqlite(path: files.file("cache.db")))
        #expect(cache.client === cache.client)
        let users = try await cache.client.fetch(APIRequest(baseURL: server.baseURL, path: "/users"), as: [User].self)
        #expect(users.count == 2)
        let reader = try SyncCache(readingFrom: .sqlite(path: files.file("cache.db")))
        let again = try await reader.client.fetch(APIRequest(baseURL: server.baseURL, path: "/users"), as: [User].self)
        #expect(again.count == 2 && reader.client === reader.client)
        try await reader.shutdown()
        try await cache.shutdown()
        try await server.shutdown()
    }
}
