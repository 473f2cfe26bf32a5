internal import FoundationEssentials
internal import NIOCore
import SyncDecoding
import SyncIngest
import SyncModel
internal import SyncSQLite

/// The copy of a ``MemoryStore``'s data that one transaction changes, shared by its ``MemoryTransaction`` and the
/// ``MemoryRecords`` it makes; the store swaps it in when the transaction returns, and drops it when it throws.
final class MemoryWorkingCopy {
    var data: MemoryData

    init(_ data: MemoryData) {
        self.data = data
    }
}

/// A run's ``StoreTransaction`` in a ``MemoryStore``: what SQLite's statements do (``SQLiteWriter``), done to a
/// ``MemoryWorkingCopy``. ``SyncApply`` decides what it writes.
struct MemoryTransaction: StoreTransaction {
    let working: MemoryWorkingCopy
    let endpoint: EndpointConfiguration

    var name: String { endpoint.name.name }

    // MARK: - The endpoint's row

    func openEndpoint(kind: String) -> EndpointRow {
        guard let row = working.data.endpoints[name] else { return EndpointRow() }
        return EndpointRow(
            version: row.state.version, recordCount: row.state.recordCount, columnsSignature: row.columnsSignature,
            cursor: row.state.cursor, cursorColumn: row.state.cursorColumn)
    }

    func storeEndpointRow(kind: String) {
        guard working.data.endpoints[name] != nil else {
            working.data.endpoints[name] = MemoryEndpoint(name: name, kind: kind, url: endpoint.redactedURL)
            return
        }
        working.data.endpoints[name]?.state.kind = kind
        working.data.endpoints[name]?.url = endpoint.redactedURL
    }

    func storeCursor(_ cursor: String, column: String) {
        working.data.endpoints[name]?.state.cursor = cursor
        working.data.endpoints[name]?.state.cursorColumn = column
    }

    func finishEndpoint(_ success: EndpointSuccess) {
        working.data.endpoints[name]?.finish(success, keyNames: TableShape(endpoint).keyNames)
    }

    func failEndpoint(at time: String, httpStatus: Int?, error: String, parents: SyncSummary.FanOut?) {
        guard var state = working.data.endpoints[name]?.state else { return }
        state.lastAttemptAt = time
        state.lastStatus = httpStatus
        state.lastError = error
        state.parents = parents
        state.consecutiveFailures = state.consecutiveFailures == .max ? .max : state.consecutiveFailures + 1
        working.data.endpoints[name]?.state = state
    }

    // MARK: - The table

    func prepareTable(_ shape: TableShape, storedSignature: String?) throws -> Bool {
        guard let table = working.data.tables[name] else {
            working.data.tables[name] = MemoryTable(shape)
            return false
        }
        if let refusal = table.incompatibility(with: shape) { throw refusal }
        let changed = working.data.tables[name]?.conform(to: shape) ?? false
        return changed || (storedSignature != nil && storedSignature != shape.columnsSignature)
    }

    package func refill(_ shape: TableShape, decoder: RecordDecoder) {
        working.data.tables[name]?.refill(shape, decoder: decoder)
    }

    func count(_ shape: TableShape) -> Int {
        working.data.tables[name]?.rows.count ?? 0
    }

    func makeRecordWriter(_ shape: TableShape, version: Int64, now: String) -> MemoryRecords {
        MemoryRecords(working: working, shape: shape, version: version, now: now)
    }

    /// The keys of the stored rows that `seen` does not hold, in rowid order, as SQLite's scan finds them (so that
    /// their tombstones are in the same order).
    func unseenRows(_ shape: TableShape, seen: SeenKeys) -> [[ColumnValue]] {
        let rows = working.data.tables[name]?.rows ?? [:]
        return rows.filter { !seen.contains(key: $0.key) }.sorted { $0.value.rowID < $1.value.rowID }.map(\.key)
    }

    func delete(_ rows: [[ColumnValue]], of shape: TableShape, version: Int64, now: String) -> Int {
        rows.reduce(0) { deleted, key in
            deleted + (working.data.tables[name]?.delete(key, version: version, now: now) ?? 0)
        }
    }

    // MARK: - Documents

    func storedDocument(equals body: ByteBuffer) -> Bool {
        working.data.documents[name]?.body.elementsEqual(body.readableBytesView) ?? false
    }

    func storeDocument(_ body: ByteBuffer, contentType: String?, version: Int64, changedAt: String) {
        working.data.documents[name] = MemoryDocument(
            body: Array(body.readableBytesView), contentType: contentType, version: version, changedAt: changedAt)
    }

    // MARK: - Runs

    /// Records the run, and keeps the endpoint's last ``RunRecord/retainedRuns``.
    func insertRun(_ run: RunRecord) -> Int64 {
        let id = working.data.nextRunID
        working.data.nextRunID += 1
        working.data.runs[run.endpoint, default: []].append(
            MemoryRun(id: id, values: run.values, problems: run.problems))
        let excess = (working.data.runs[run.endpoint]?.count ?? 0) - RunRecord.retainedRuns
        if excess > 0 { working.data.runs[run.endpoint]?.removeFirst(excess) }
        return id
    }
}

/// What stores a run's records in a ``MemoryStore``: each record is upserted at once into the working copy's table,
/// nothing waits.
struct MemoryRecords: StoreRecordWriter {
    static let writesRepeatedKeysTogether = true

    let working: MemoryWorkingCopy
    let name: String
    let keyColumns: [Int]
    /// Each configured column's position in the stored table.
    let positions: [Int?]
    let version: Int64
    let now: String

    init(working: MemoryWorkingCopy, shape: TableShape, version: Int64, now: String) {
        self.working = working
        name = shape.name.name
        keyColumns = shape.keyColumns
        positions = working.data.tables[name]?.positions(of: shape.columns) ?? []
        self.version = version
        self.now = now
    }

    func store(_ positions: [Int], of batch: RecordPipeline.Batch) -> Int {
        var written = 0
        for position in positions {
            let record = batch.records[position]
            written +=
                working.data.tables[name]?.upsert(
                    key: keyColumns.map { record.values[$0] }, values: record.values, positions: self.positions,
                    raw: String(decoding: batch.bytes[record.raw], as: UTF8.self), version: version, now: now) ?? 0
        }
        return written
    }

    func flush() -> Int { 0 }

    func deleteFlagged(key: [ColumnValue]) -> Int {
        working.data.tables[name]?.delete(key, version: version, now: now) ?? 0
    }

    func dropTombstonesOfReturnedKeys() {
        working.data.tables[name]?.dropTombstonesOfReturnedKeys(version: version)
    }
}
