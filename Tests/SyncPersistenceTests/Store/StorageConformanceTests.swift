import Foundation
import Logging
import NIOCore
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncPostgres
@testable import SyncSQLite

/// What every ``SyncStorage`` and ``ReadStorage`` must do, said through the protocols alone, and run against each
/// implementation: each storage (PostgreSQL, the in-memory store) is added to ``Kind`` and must pass the same tests
/// unchanged.
@Suite("SyncStorage: what every implementation does")
struct StorageConformanceTests {
    enum Kind: CaseIterable, CustomStringConvertible {
        case sqlite
        case postgres
        case memory

        var description: String {
            switch self {
            case .sqlite: "SQLite"
            case .postgres: "PostgreSQL"
            case .memory: "in-memory"
            }
        }

        /// The storages the tests run against: PostgreSQL where the tests can start a cluster.
        static var all: [Kind] { PostgresTestCluster.isAvailable ? allCases : [.sqlite, .memory] }

        /// A fresh, empty storage in `directory` (PostgreSQL: a new database of the test cluster, closed with `open`).
        func make(in directory: TemporaryDirectory, _ open: OpenStores) async throws -> any SyncStorage {
            try await makeBoth(in: directory, open).writes
        }

        /// A fresh, empty storage in `directory`, and a reader of it.
        func makeBoth(in directory: TemporaryDirectory, _ open: OpenStores) async throws -> (
            writes: any SyncStorage, reads: any ReadStorage
        ) {
            switch self {
            case .sqlite:
                let database = try DatabaseQueue(path: directory.file("cache.db"))
                _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
                return (SQLiteSyncStorage(database: database), try SQLiteReadStorage(path: directory.file("cache.db")))
            case .postgres:
                let url = try await PostgresTestCluster.shared().makeDatabase()
                let store = try await PostgresStore.open(
                    try PostgresLocation(parsing: url), password: nil, logger: Logger(label: "syncd.tests"))
                open.add(store)
                return (
                    PostgresSyncStorage(store: store, spoolDirectory: directory.path), PostgresReadStorage(store: store)
                )
            case .memory:
                let store = try MemoryStore(spoolDirectory: directory.path)
                return (store, store)
            }
        }
    }

    /// The PostgreSQL stores a test opened, closed when the test's suite instance goes.
    final class OpenStores: Sendable {
        private let stores = Mutex<[PostgresStore]>([])

        func add(_ store: PostgresStore) { stores.withLock { $0.append(store) } }

        deinit {
            let stores = stores.withLock { $0 }
            Task { for store in stores { await store.close() } }
        }
    }

    static let toml = """
        [[endpoint]]
        name = "users"
        url = "https://example.com/users"
        records = "$"
        primary_key = "id"
        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"

        [[endpoint]]
        name = "flags"
        url = "https://example.com/flags.json"
        """

    let directory: TemporaryDirectory
    let open = OpenStores()
    let users: SyncRun
    let flags: SyncRun

    init() throws {
        directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(Self.toml, sourcePath: directory.file("syncd.toml"))
        users = SyncRun(endpoint: try #require(configuration.plan(named: "users")))
        flags = SyncRun(endpoint: try #require(configuration.plan(named: "flags")))
    }

    /// A body of users with these ids, as the engine hands it over: spooled where the storage says.
    func body(_ ids: [Int], in storage: any SyncStorage) throws -> DecodedBody {
        let spool = BodySpool(directory: storage.spoolDirectory)
        let json = "[" + ids.map { #"{"id": \#($0), "name": "user \#($0)"}"# }.joined(separator: ",") + "]"
        try spool.append(ByteBuffer(string: json))
        return DecodedBody(spool: spool)
    }

    static func facts(status: Int = 200, etag: String? = nil) -> @Sendable () -> RunFacts {
        { RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: status, etag: etag, bytes: 10) }
    }

    @Test(
        "no state before the first run; a snapshot is stored with its validators and version", arguments: Kind.all)
    func firstSnapshot(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        #expect(try await storage.state(of: "users") == nil)
        let report = try await storage.applyCollection(
            try body([1, 2, 3], in: storage), run: users, facts: Self.facts(etag: "\"v1\""))
        #expect(report.outcome == .changed)
        #expect((report.inserted, report.updated, report.deleted, report.version) == (3, 0, 0, 1))
        let state = try #require(try await storage.state(of: "users"))
        #expect((state.recordCount, state.version, state.etag, state.lastStatus) == (3, 1, "\"v1\"", 200))
    }

    @Test("the same snapshot again changes nothing; a smaller one deletes, a new version", arguments: Kind.all)
    func resync(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1, 2, 3], in: storage), run: users, facts: Self.facts())
        let same = try await storage.applyCollection(try body([1, 2, 3], in: storage), run: users, facts: Self.facts())
        #expect((same.outcome, same.version) == (.unchanged, 1))
        let smaller = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        #expect((smaller.outcome, smaller.deleted, smaller.version, smaller.records) == (.changed, 1, 2, 2))
    }

    @Test("a refused snapshot (empty, or deleting past max_delete) stores nothing", arguments: Kind.all)
    func refusals(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1, 2, 3, 4], in: storage), run: users, facts: Self.facts())
        let before = try await storage.state(of: "users")
        await #expect(throws: StoreError.emptySnapshot) {
            try await storage.applyCollection(try body([], in: storage), run: users, facts: Self.facts())
        }
        await #expect(throws: StoreError.tooManyDeletions) {
            try await storage.applyCollection(try body([1], in: storage), run: users, facts: Self.facts())
        }
        #expect(try await storage.state(of: "users") == before)
    }

    @Test("a 304 keeps the data and the version, and records the status", arguments: Kind.all)
    func notModified(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        let report = try await storage.applyNotModified(run: users, facts: Self.facts(status: 304))
        #expect((report.outcome, report.version) == (.notModified, 1))
        let state = try #require(try await storage.state(of: "users"))
        #expect((state.recordCount, state.version, state.lastStatus) == (2, 1, 304))
    }

    @Test("a failure keeps the data and counts, even from a cancelled task", arguments: Kind.all)
    func failure(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        let users = self.users
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await storage.recordFailure(
                "users: HTTP 503", outcome: .failed, run: users, facts: Self.facts(status: 503)())
        }
        let report = try await task.value
        #expect(report.outcome == .failed)
        let state = try #require(try await storage.state(of: "users"))
        #expect((state.recordCount, state.version, state.consecutiveFailures) == (2, 1, 1))
        #expect(state.lastError == "users: HTTP 503")
    }

    @Test("a document is stored when it differs, and only then", arguments: Kind.all)
    func document(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        let first = try await storage.applyDocument(
            ByteBuffer(string: #"{"a": 1}"#), contentType: "application/json", run: flags, facts: Self.facts())
        let again = try await storage.applyDocument(
            ByteBuffer(string: #"{"a": 1}"#), contentType: "application/json", run: flags, facts: Self.facts())
        let changed = try await storage.applyDocument(
            ByteBuffer(string: #"{"a": 2}"#), contentType: "application/json", run: flags, facts: Self.facts())
        #expect([first.outcome, again.outcome, changed.outcome] == [.changed, .unchanged, .changed])
        #expect(try await storage.state(of: "flags")?.version == 2)
    }

    @Test("next due times and their reasons are stored and read back; nil is due at once", arguments: Kind.all)
    func schedule(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1], in: storage), run: users, facts: Self.facts())
        _ = try await storage.applyDocument(
            ByteBuffer(string: "{}"), contentType: "application/json", run: flags, facts: Self.facts())
        try await storage.storeNextDue([
            NextDue(name: "users", due: 1_700_000_600, reason: "max-age: fresh for 10m"),
            NextDue(name: "flags", due: nil),
        ])
        let schedule = try await storage.schedule(of: [users.endpoint, flags.endpoint])
        #expect(schedule["users"]?.nextDue == 1_700_000_600)
        #expect(schedule["flags"]?.nextDue == nil)
        #expect(schedule["users"]?.consecutiveFailures == 0)
        #expect(schedule["users"]?.reason == "max-age: fresh for 10m" && schedule["flags"]?.reason == nil)
        // `syncd status` and the read API read the reason with the endpoint's state.
        #expect(try await storage.state(of: "users")?.scheduleReason == "max-age: fresh for 10m")
    }

    @Test("a cached resource is stored, replaced and touched under its key", arguments: Kind.all)
    func resources(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        let key = "https://example.com/people"
        #expect(try await storage.resource(key) == nil)
        let first = StoredResource(
            body: Data("[1]".utf8), contentType: "application/json", etag: "\"a\"", lastModified: nil,
            validatedAt: 1_700_000_000)
        try await storage.storeResource(first, key)
        #expect(try await storage.resource(key) == first)
        var second = first
        second.body = Data([0, 255])
        second.etag = nil
        try await storage.storeResource(second, key)
        try await storage.touchResource(key, validatedAt: 1_700_000_500)
        second.validatedAt = 1_700_000_500
        #expect(try await storage.resource(key) == second)
        #expect(try await storage.resource(key + "/other") == nil)
    }

    // MARK: - Reads

    @Test("records come back in key order, as received, with the answer's tag and version", arguments: Kind.all)
    func records(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        _ = try await storage.applyCollection(try body([3, 1, 2], in: storage), run: users, facts: Self.facts())
        let endpoint = users.endpoint
        let page = try await reads.read { try $0.records(of: endpoint, RecordQuery()) }
        #expect(page.raws == [1, 2, 3].map { #"{"id": \#($0), "name": "user \#($0)"}"# })
        #expect(page.version == 1)
        let filtered = try await reads.read {
            try $0.records(
                of: endpoint, RecordQuery(filters: [.init(column: "name", op: .eq, values: ["user 2"])]),
                countingAll: true, maxBytes: .max)
        }
        #expect((filtered.raws.count, filtered.total) == (1, 1))
        let one = try await reads.read { try $0.record(of: endpoint, key: ["2"]) }
        #expect(one?.raw == #"{"id": 2, "name": "user 2"}"#)
        #expect(try await reads.read { try $0.record(of: endpoint, key: ["9"]) } == nil)
    }

    @Test("an endpoint never synced is refused by name; unknown columns too", arguments: Kind.all)
    func unsynced(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let endpoint = users.endpoint
        await #expect(throws: StoreError.notSynced) {
            try await reads.read { try $0.records(of: endpoint, RecordQuery()) }
        }
        _ = try await storage.applyCollection(try body([1], in: storage), run: users, facts: Self.facts())
        await #expect(throws: StoreError.unknownColumn) {
            try await reads.read {
                try $0.records(of: endpoint, RecordQuery(filters: [.init(column: "nope", op: .eq, values: ["x"])]))
            }
        }
    }

    @Test(
        "tables made before the first syncs: still unsynced until the first run stores into it; made twice, the same",
        arguments: Kind.all)
    func preparedTables(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let endpoint = users.endpoint
        try await storage.prepareTables(for: [endpoint, flags.endpoint])
        await #expect(throws: StoreError.notSynced) {
            try await reads.read { try $0.records(of: endpoint, RecordQuery()) }
        }
        try await storage.prepareTables(for: [endpoint, flags.endpoint])
        let report = try await storage.applyCollection(try body([2, 1], in: storage), run: users, facts: Self.facts())
        #expect((report.outcome, report.inserted, report.version) == (.changed, 2, 1))
        let stored = try await reads.read { try $0.records(of: endpoint, RecordQuery()) }
        #expect(stored.raws == [#"{"id": 1, "name": "user 1"}"#, #"{"id": 2, "name": "user 2"}"#])
        try await storage.prepareTables(for: [endpoint])
        #expect(try await reads.read { try $0.records(of: endpoint, RecordQuery()) }.raws.count == 2, "rows kept")
    }

    @Test(
        "the change feed: everything since 0, then what a later snapshot changed and deleted", arguments: Kind.all)
    func changes(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let endpoint = users.endpoint
        _ = try await storage.applyCollection(try body([1, 2, 3], in: storage), run: users, facts: Self.facts())
        let all = try await reads.read { try $0.changes(of: endpoint, since: 0) }
        #expect((all.version, all.changedKeys, all.deleted) == (1, ["1", "2", "3"], []))
        _ = try await storage.applyCollection(try body([1, 2, 4], in: storage), run: users, facts: Self.facts())
        let later = try await reads.read { try $0.changes(of: endpoint, since: 1) }
        #expect((later.version, later.changedKeys, later.inserted, later.deleted) == (2, ["4"], [true], ["3"]))
        let capped = try await reads.read {
            try $0.changes(of: endpoint, since: 0, after: nil, limit: 2, maxBytes: .max)
        }
        #expect(capped.changedKeys.count + capped.deleted.count == 2)
        #expect(capped.next != nil)
    }

    @Test("a document reads back with its media type and tag", arguments: Kind.all)
    func documentRead(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let endpoint = flags.endpoint
        #expect(try await reads.read { try $0.document(of: endpoint) } == nil)
        _ = try await storage.applyDocument(
            ByteBuffer(string: #"{"a": 1}"#), contentType: "application/json", run: flags, facts: Self.facts())
        let document = try #require(try await reads.read { try $0.document(of: endpoint) })
        #expect(String(decoding: document.body, as: UTF8.self) == #"{"a": 1}"#)
        #expect((document.contentType, document.version) == ("application/json", 1))
    }

    @Test(
        "the generation moves with each commit; states, instance and stored endpoints read back",
        arguments: Kind.all)
    func generationAndStates(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let before = try reads.generation()
        #expect(try reads.generation() == before)
        _ = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        #expect(try reads.generation() != before)
        let (states, instance, stored) = try await reads.read { reader in
            (try reader.states(), try reader.instance(), try reader.storedEndpoint(named: "users"))
        }
        #expect(states.map(\.name) == ["users"])
        #expect(!instance.isEmpty)
        #expect(stored?.columns.map(\.name) == ["id", "name"])
        #expect(stored?.primaryKey == [0])
        #expect(try await reads.read { try $0.storedEndpoint(named: "nope") } == nil)
    }

    @Test(
        "recent runs: each endpoint's last ones, oldest first, in the order asked, with duration, outcome and records",
        arguments: Kind.all)
    func recentRuns(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        _ = try await storage.applyCollection(try body([1], in: storage), run: users, facts: Self.facts())
        _ = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        _ = try await storage.recordFailure(
            "users: HTTP 500", outcome: .failed, run: users, facts: Self.facts(status: 500)())
        _ = try await storage.applyDocument(
            ByteBuffer(string: "{}"), contentType: "application/json", run: flags, facts: Self.facts())
        let runs = try await reads.read { try $0.recentRuns(of: ["flags", "users", "nope"], limit: 2) }
        #expect(runs.map(\.endpoint) == ["flags", "users", "users"])
        #expect(runs.map(\.outcome) == [.changed, .changed, .failed])
        #expect(runs.map(\.records) == [1, 2, 0], "a document is one record")
        #expect(runs.allSatisfy { $0.durationMilliseconds == 1000 && $0.startedAt.hasPrefix("2023-11-14T22:13:20") })
        #expect(try await reads.read { try $0.recentRuns(of: ["users"], limit: 0) }.isEmpty)
        #expect(try await reads.read { try $0.recentRuns(of: [], limit: 30) }.isEmpty)
    }
}
