import SyncDecoding
package import SyncIngest
package import SyncModel
internal import SyncSQLite
import SyncSupport

/// What one sync of one endpoint means for the stored data, whatever the store: the one algorithm behind every
/// ``SyncStorage``, over the store's ``StoreTransaction``.
///
/// It decides the versions, the empty-snapshot guard, `max_delete`, the counts (inserted, updated, deleted), the
/// cursor to store, the outcome, what changes in the endpoint's row, and the run's record; the store only reads and
/// writes rows, inside the one transaction it opened for the call. Readers see the data before the transaction or
/// after it, never a mix. When anything throws, the store rolls back and nothing of the run's data is written.
package struct SyncApply: Sendable {
    package var endpoint: EndpointConfiguration
    /// When the scheduler wanted the run to start, in seconds since 1970; recorded as syncd_runs.due_at. `nil` for
    /// a run nobody scheduled (`syncd sync`, a library's sync).
    package var dueAt: Double?
    /// What a failed run of a child endpoint did per parent before its failed walk (``SyncRun/failedFanOut``).
    package var failedFanOut: SyncSummary.FanOut?

    package init(endpoint: EndpointConfiguration, dueAt: Double? = nil) {
        self.endpoint = endpoint
        self.dueAt = dueAt
    }

    package init(_ run: SyncRun) {
        self.init(endpoint: run.endpoint, dueAt: run.dueAt)
        failedFanOut = run.failedFanOut
    }

    var name: String { endpoint.name.name }
    var kind: String { endpoint.isDocument ? "document" : "collection" }

    // MARK: - Collections

    /// Applies a 200 with records.
    ///
    /// - Throws: ``StoreError`` (an empty snapshot, more deletions than `max_delete` allows, a changed primary key or
    ///   primary-key type), or the store's error.
    package func applyCollection(
        _ decoded: DecodedBody, facts startFacts: RunFacts, in transaction: inout some StoreTransaction
    ) throws -> SyncSummary {
        let (shape, decoder) = (TableShape(endpoint), endpoint.recordDecoder)
        let (state, newVersion, schemaChanged, before) = try openCollection(shape, in: &transaction)
        var report = SyncSummary(endpoint: name, outcome: .unchanged)
        let now = Timestamp.format(startFacts.finishedAt)

        var intake = RecordIntake(endpoint: endpoint, keyNames: shape.keyNames, now: startFacts.finishedAt)
        var records = try transaction.makeRecordWriter(shape, version: newVersion, now: now)
        let stored = try store(decoded, decoder: decoder, intake: &intake, into: &records)
        let written = stored.written
        var deleted = stored.deleted

        try transaction.storeEndpointRow(kind: "collection")
        if let tally = stored.schemaTally {
            report.newDrift = try journalDrift(tally, now: now, in: &transaction)
        }
        // A streamed body's facts are known once its fetch ended (which the last batch waited for).
        let facts = decoded.finalFacts ?? startFacts
        report.record(intake, facts: facts)
        let isEmpty = intake.isEmpty
        if endpoint.mode == .snapshot, isEmpty, before > 0, !endpoint.allowEmpty {
            throw StoreError.emptySnapshot(endpoint: name, stored: before)
        }
        // A table that was empty has nothing the body could have left out.
        if endpoint.mode == .snapshot, before > 0 {
            deleted += try deleteUnseen(
                shape, seen: intake.seen, version: newVersion, now: now, limitedTo: isEmpty ? nil : before,
                in: &transaction)
        }
        let after = try transaction.count(shape)
        report.inserted = max(0, after - before + deleted)
        report.updated = max(0, written - report.inserted)
        report.deleted = deleted
        report.records = after

        if let progress = intake.incremental,
            let cursor = progress.cursorToStore(stored: state.cursor, storedColumn: state.cursorColumn)
        {
            try transaction.storeCursor(cursor, column: progress.columnName)
        }
        let changed = written > 0 || deleted > 0 || schemaChanged
        report.version = changed ? newVersion : state.version
        report.outcome = changed ? .changed : .unchanged
        if report.inserted > 0 { try records.dropTombstonesOfReturnedKeys() }
        try finish(&report, facts: facts, changed: changed, recordCount: after, shape: shape, in: &transaction)
        return report
    }

    /// Takes the body's records through `intake` into `records`, as they are decoded.
    ///
    /// - Parameter extras: For a child endpoint's run, asked before each batch with the page of the body its records
    ///   are of (a batch then holds one page's records) and the intake about to take them: the values the records
    ///   carry after their own columns, before an incremental deleted flag (the parent's columns and `_parent`).
    /// - Returns: The rows written, the rows deleted by a deleted flag, the schema the records showed, and with
    ///   `extras`, the records kept per page.
    func store<Records: StoreRecordWriter>(
        _ decoded: DecodedBody, decoder: RecordDecoder, intake: inout RecordIntake, into records: inout Records,
        extras: ((_ page: Int, _ intake: inout RecordIntake) -> [ColumnValue])? = nil
    ) throws -> (written: Int, deleted: Int, schemaTally: SchemaTally?, keptPerPage: [Int]) {
        var written = 0
        var deleted = 0
        var keptPerPage: [Int] = []
        // The records are decoded on a second thread while this one stores them (RecordPipeline).
        let pipeline = RecordPipeline(
            decoder: decoder, body: decoded, observingSchema: true, splittingPages: extras != nil)
        defer { pipeline.stop() }
        // The positions in the batch of the records to store, stored in groups, in order: a deletion waits for the
        // records before it, and so does a repeated key where the store cannot write it twice in one statement.
        var waiting: [Int] = []
        let own = endpoint.ownColumnCount
        while var batch = try pipeline.next() {
            let kept = intake.received - intake.rejected
            if let extra = extras?(batch.page, &intake), !extra.isEmpty {
                for index in batch.records.indices {
                    let count = batch.records[index].values.count
                    batch.records[index].values.insert(contentsOf: extra, at: min(own, count))
                }
            }
            waiting.removeAll(keepingCapacity: true)
            for (position, record) in batch.records.enumerated() {
                switch intake.take(record) {
                case .skip:
                    continue
                case .delete(let key):
                    written += try records.store(waiting, of: batch)
                    waiting.removeAll(keepingCapacity: true)
                    written += try records.flush()
                    deleted += try records.deleteFlagged(key: key)
                case .store(let isDuplicate):
                    if isDuplicate, !Records.writesRepeatedKeysTogether {
                        written += try records.store(waiting, of: batch)
                        waiting.removeAll(keepingCapacity: true)
                        written += try records.flush()
                    }
                    waiting.append(position)
                }
            }
            written += try records.store(waiting, of: batch)
            if extras != nil, batch.page >= 0 {
                if keptPerPage.count <= batch.page {
                    keptPerPage += repeatElement(0, count: batch.page + 1 - keptPerPage.count)
                }
                keptPerPage[batch.page] += intake.received - intake.rejected - kept
            }
        }
        written += try records.flush()
        return (written, deleted, pipeline.schemaTally, keptPerPage)
    }

    /// Applies a 304: the data stays, freshness moves (and newly configured columns are filled from `_raw`).
    package func applyNotModified(facts: RunFacts, in transaction: inout some StoreTransaction) throws -> SyncSummary {
        let state = try transaction.openEndpoint(kind: kind)
        var report = SyncSummary(endpoint: name, outcome: .notModified)
        report.httpStatus = facts.httpStatus
        report.pages = facts.pageCount
        var changed = false
        var shape: TableShape?
        var stored = state.recordCount
        if !endpoint.isDocument {
            let table = TableShape(endpoint)
            // Checked on a 304 too: a changed primary key or key type is refused here as on a 200.
            if try transaction.prepareTable(table, storedSignature: state.columnsSignature) {
                try transaction.refill(table, decoder: endpoint.recordDecoder)
                changed = true
            }
            if state.columnsSignature != table.columnsSignature { stored = try transaction.count(table) }
            shape = table
        }
        try transaction.storeEndpointRow(kind: kind)
        report.version = changed ? try state.nextVersion(endpoint: name) : state.version
        report.records = stored
        try finish(&report, facts: facts, changed: changed, recordCount: stored, shape: shape, in: &transaction)
        return report
    }

    // MARK: - Shared steps

    /// How every apply of records starts: the endpoint's row opened, the run's version, the table brought to `shape`
    /// (its rows re-read from `_raw` when the columns changed, a child's parent columns kept), and the rows it held.
    func openCollection(_ shape: TableShape, in transaction: inout some StoreTransaction) throws
        -> (state: EndpointRow, newVersion: Int64, schemaChanged: Bool, before: Int)
    {
        let state = try transaction.openEndpoint(kind: "collection")
        let newVersion = try state.nextVersion(endpoint: name)
        let schemaChanged = try transaction.prepareTable(shape, storedSignature: state.columnsSignature)
        if schemaChanged {
            try transaction.refill(shape.recordColumns(endpoint.ownColumnCount), decoder: endpoint.recordDecoder)
        }
        return (state, newVersion, schemaChanged, try transaction.count(shape))
    }

    /// Deletes the rows a snapshot no longer holds, leaving a tombstone for each.
    ///
    /// - Parameter limitedTo: the stored rows before the run, whose share `max_delete` limits; nil for a snapshot
    ///   without records, which `allow_empty` alone lets through.
    /// - Throws: ``StoreError/tooManyDeletions`` when more rows would go than `max_delete` allows.
    func deleteUnseen(
        _ shape: TableShape, seen: SeenKeys, version: Int64, now: String, limitedTo stored: Int?,
        in transaction: inout some StoreTransaction
    ) throws -> Int {
        let unseen = try transaction.unseenRows(shape, seen: seen)
        if let stored, unseen.count > endpoint.maxDelete.allowed(stored: stored) {
            throw StoreError.tooManyDeletions(
                endpoint: name, deleting: unseen.count, stored: stored, limit: endpoint.maxDelete)
        }
        return try transaction.delete(unseen, of: shape, version: version, now: now)
    }

    /// Writes a successful run's state into the endpoint's row, and records the run.
    func finish(
        _ report: inout SyncSummary, facts: RunFacts, changed: Bool, recordCount: Int, shape: TableShape?,
        in transaction: inout some StoreTransaction
    ) throws {
        let notModified = report.outcome == .notModified
        try transaction.finishEndpoint(
            EndpointSuccess(
                at: Timestamp.format(facts.finishedAt), httpStatus: facts.httpStatus, recordCount: recordCount,
                version: report.version, changed: changed,
                etag: EndpointSuccess.Validator(facts.etag, notModified: notModified),
                lastModified: EndpointSuccess.Validator(facts.lastModified, notModified: notModified), shape: shape,
                parents: report.fanOut))
        report.runID = try transaction.insertRun(RunRecord(report, facts: facts, dueAt: dueAt))
    }
}
