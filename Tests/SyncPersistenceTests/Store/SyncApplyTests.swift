import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest

/// The contract between ``SyncApply`` and a store's ``StoreTransaction``, said against a store that only records what
/// it is asked: the order of the calls, and what the algorithm decides before the store hears of it.
@Suite("SyncApply: what it asks of a store's transaction")
struct SyncApplyTests {
    let directory: TemporaryDirectory
    let users: EndpointConfiguration

    init() throws {
        directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(
            StorageConformanceTests.toml, sourcePath: directory.file("syncd.toml"))
        users = try #require(configuration.plan(named: "users"))
    }

    func body(_ ids: [Int]) throws -> DecodedBody {
        let spool = BodySpool(directory: directory.path)
        let json = "[" + ids.map { #"{"id": \#($0), "name": "user \#($0)"}"# }.joined(separator: ",") + "]"
        try spool.append(ByteBuffer(string: json))
        return DecodedBody(spool: spool)
    }

    static let facts = RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200, bytes: 10)

    @Test("the row is read first and made sure of after the records, before anything else writes it")
    func endpointRowOrder() throws {
        var transaction = RecordingTransaction<Apart>()
        let report = try SyncApply(endpoint: users).applyCollection(
            try body([1, 2]), facts: Self.facts, in: &transaction)
        #expect(report.outcome == .changed && report.inserted == 2 && report.version == 1)
        #expect(
            transaction.log.calls.filter { !$0.hasPrefix("drift") } == [
                "open collection", "prepareTable", "count", "makeRecordWriter", "store 2", "flush",
                "storeEndpointRow collection", "count", "dropTombstonesOfReturnedKeys", "finishEndpoint",
                "insertRun",
            ])
    }

    @Test("max_delete is decided before the store deletes anything")
    func deletionLimit() throws {
        var transaction = RecordingTransaction<Apart>()
        transaction.log.stored = Set(1...10)
        transaction.log.row.version = 3
        #expect(throws: StoreError.tooManyDeletions) {
            try SyncApply(endpoint: users).applyCollection(try body([1]), facts: Self.facts, in: &transaction)
        }
        #expect(transaction.log.calls.contains("unseenRows 9"))
        #expect(!transaction.log.calls.contains { $0.hasPrefix("delete ") })
    }

    @Test("a snapshot within max_delete deletes the unseen rows and counts them")
    func deletions() throws {
        var transaction = RecordingTransaction<Apart>()
        transaction.log.stored = [1, 2, 3]
        let report = try SyncApply(endpoint: users).applyCollection(
            try body([1, 2]), facts: Self.facts, in: &transaction)
        #expect(transaction.log.calls.contains("delete 1"))
        #expect((report.deleted, report.inserted, report.records) == (1, 0, 2))
    }

    @Test("a store that cannot write a key twice in a statement has what waits flushed before the repeat")
    func repeatedKeys() throws {
        var apart = RecordingTransaction<Apart>()
        _ = try SyncApply(endpoint: users).applyCollection(try body([1, 2, 1]), facts: Self.facts, in: &apart)
        var together = RecordingTransaction<Together>()
        _ = try SyncApply(endpoint: users).applyCollection(try body([1, 2, 1]), facts: Self.facts, in: &together)
        #expect(
            apart.log.calls.filter { $0.hasPrefix("store ") || $0 == "flush" } == [
                "store 2", "flush", "store 1", "flush",
            ])
        #expect(together.log.calls.filter { $0.hasPrefix("store ") || $0 == "flush" } == ["store 3", "flush"])
    }

    @Test("a 304 keeps the stored validators it did not get; a 200 without them clears them")
    func validators() throws {
        var transaction = RecordingTransaction<Apart>()
        _ = try SyncApply(endpoint: users).applyNotModified(facts: Self.facts, in: &transaction)
        #expect(transaction.log.success?.etag == .keep)
        _ = try SyncApply(endpoint: users).applyCollection(try body([1]), facts: Self.facts, in: &transaction)
        #expect(transaction.log.success?.etag == .clear)
        var facts = Self.facts
        facts.etag = "\"v2\""
        _ = try SyncApply(endpoint: users).applyNotModified(facts: facts, in: &transaction)
        #expect(transaction.log.success?.etag == .store("\"v2\""))
    }

    @Test("a failure whose claim another node took records nothing")
    func claimLost() throws {
        var transaction = RecordingTransaction<Apart>()
        transaction.log.claimLost = true
        let report = try SyncApply(endpoint: users).recordFailure("timed out", facts: Self.facts, in: &transaction)
        #expect(report.error == "timed out" && report.runID == nil)
        #expect(transaction.log.calls == ["open collection"])
    }
}

/// What ``RecordingTransaction`` was asked, and the little it keeps: the stored keys and the endpoint's row.
final class TransactionLog {
    var calls: [String] = []
    var stored: Set<Int64> = []
    var row = EndpointRow()
    var success: EndpointSuccess?
    var claimLost = false
}

/// Whether a ``RecordingTransaction``'s records take a repeated key in one statement with what waits.
protocol RepeatedKeys { static var together: Bool { get } }
enum Apart: RepeatedKeys { static let together = false }
enum Together: RepeatedKeys { static let together = true }

/// A ``StoreTransaction`` that records its calls; records are kept as their integer keys.
struct RecordingTransaction<Keys: RepeatedKeys>: StoreTransaction {
    let log = TransactionLog()

    func note(_ call: String) { log.calls.append(call) }

    func openEndpoint(kind: String) throws -> EndpointRow {
        note("open \(kind)")
        if log.claimLost { throw StoreError.claimLost(endpoint: "users", holder: "another") }
        return log.row
    }
    func storeEndpointRow(kind: String) { note("storeEndpointRow \(kind)") }
    func storeCursor(_ cursor: String, column: String) { note("storeCursor") }
    func finishEndpoint(_ success: EndpointSuccess) {
        note("finishEndpoint")
        log.success = success
        log.row.version = success.version
    }
    func failEndpoint(at time: String, httpStatus: Int?, error: String, parents: SyncSummary.FanOut?) {
        note("failEndpoint")
    }
    func prepareTable(_ shape: TableShape, storedSignature: String?) -> Bool {
        note("prepareTable")
        return false
    }
    func refill(_ shape: TableShape, decoder: RecordDecoder) { note("refill") }
    func count(_ shape: TableShape) -> Int {
        note("count")
        return log.stored.count
    }
    func makeRecordWriter(_ shape: TableShape, version: Int64, now: String) -> RecordingRecords<Keys> {
        note("makeRecordWriter")
        return RecordingRecords(log: log)
    }
    func unseenRows(_ shape: TableShape, seen: SeenKeys) -> [Int64] {
        let unseen = log.stored.filter { !seen.contains(key: [.integer($0)]) }.sorted()
        note("unseenRows \(unseen.count)")
        return unseen
    }
    func delete(_ rows: [Int64], of shape: TableShape, version: Int64, now: String) -> Int {
        note("delete \(rows.count)")
        log.stored.subtract(rows)
        return rows.count
    }
    func parentedRows(_ shape: TableShape, before version: Int64) -> [(row: Int64, key: [ColumnValue], parent: String?)]
    {
        note("parentedRows")
        return log.stored.sorted().map { ($0, [.integer($0)], nil) }
    }
    func replaceChildStates(_ states: [ChildState], keeping parents: Set<String>) { note("replaceChildStates") }
    func storedDocument(equals body: ByteBuffer) -> Bool { false }
    func storeDocument(_ body: ByteBuffer, contentType: String?, version: Int64, changedAt: String) {}
    func driftPathTypes() -> [String: Int] { [:] }
    func storeDriftPathTypes(_ types: [(path: String, types: Int)]) { note("drift types") }
    func hasDriftEntries() -> Bool { false }
    func driftEntries(readingBack pathsJSON: String) -> [(kind: String, path: String)] { [] }
    func deleteDriftEntry(kind: String, path: String) {}
    func noteDrift(_ observations: [DriftObservations.Observation], now: String) { note("drift notes") }
    func trimNewFields(to limit: Int) {}
    func insertRun(_ run: RunRecord) -> Int64 {
        note("insertRun")
        return 1
    }
}

/// The records of ``RecordingTransaction``: they wait until a flush, like PostgreSQL's.
struct RecordingRecords<Keys: RepeatedKeys>: StoreRecordWriter {
    static var writesRepeatedKeysTogether: Bool { Keys.together }
    let log: TransactionLog
    var waiting: [Int64] = []

    mutating func store(_ positions: [Int], of batch: RecordPipeline.Batch) -> Int {
        guard !positions.isEmpty else { return 0 }
        log.calls.append("store \(positions.count)")
        for position in positions {
            if case .integer(let id) = batch.records[position].values[0] { waiting.append(id) }
        }
        return 0
    }
    mutating func flush() -> Int {
        log.calls.append("flush")
        let new = Set(waiting).subtracting(log.stored)
        log.stored.formUnion(waiting)
        waiting = []
        return new.count
    }
    func deleteFlagged(key: [ColumnValue]) -> Int { 0 }
    func dropTombstonesOfReturnedKeys() { log.calls.append("dropTombstonesOfReturnedKeys") }
}
