// What one run of a child endpoint means for the stored data, whatever the store: every walked parent's records in
// one transaction, each parent's child set replaced, the children of vanished parents deleted.

import SyncDecoding
package import SyncIngest
import SyncModel
import SyncSupport

extension SyncApply {
    /// Applies a child endpoint's run: the records of each parent walked with an answer, carrying the parent
    /// columns and `_parent`; in snapshot mode, a walked parent's rows its answer no longer holds are deleted; a
    /// parent that answered 304 or was not walked keeps its rows; the rows of a parent the parent's table no longer
    /// holds are deleted in every mode. The empty-snapshot guard and `max_delete` hold over the whole run. An
    /// incremental child's cursor is each parent's own: the highest cursor value among that parent's records.
    ///
    /// - Throws: ``StoreError`` (an empty snapshot, more deletions than `max_delete` allows, a changed primary key),
    ///   or the store's error.
    package func applyFanOut(
        _ fanOut: FanOutBody, facts startFacts: RunFacts, in transaction: inout some StoreTransaction
    ) throws -> SyncSummary {
        let (shape, decoder) = (TableShape(endpoint), endpoint.recordDecoder)
        let (state, newVersion, schemaChanged, before) = try openCollection(shape, in: &transaction)
        var report = SyncSummary(endpoint: name, outcome: .unchanged)
        let now = Timestamp.format(startFacts.finishedAt)

        var intake = RecordIntake(endpoint: endpoint, keyNames: shape.keyNames, now: startFacts.finishedAt)
        var records = try transaction.makeRecordWriter(shape, version: newVersion, now: now)
        let run = fanOut.run
        // Every answer's pages, walk after walk, in one body; each record carries its parent's values after its own.
        // Streamed, the pages are stored as the walks deliver them; else they were all delivered.
        let body = run.records(streaming: fanOut.streams)
        let sources = endpoint.fanOut?.sources ?? []
        // An incremental child's cursor is each parent's own: it follows a walk's records from its first page, and
        // what it reached is kept by walk.
        var progress: [Int: IncrementalProgress] = [:]
        var current: Int?
        let stored: (written: Int, deleted: Int, schemaTally: SchemaTally?, keptPerPage: [Int])
        do {
            stored = try store(body, decoder: decoder, intake: &intake, into: &records) { page, intake in
                guard let owner = run.owner(ofPage: page) else { return [] }
                if owner != current {
                    if let current, let incremental = intake.incremental { progress[current] = incremental }
                    intake.restartCursor()
                    current = owner
                }
                return run.parents[owner].carried(sources)
            }
        } catch let failure as PageDecodingError {
            // Named by its parent and its place in that parent's walk.
            guard let owner = run.owner(ofPage: failure.page - 1) else { throw failure }
            let first = (0..<failure.page).first { run.owner(ofPage: $0) == owner } ?? 0
            throw PageDecodingError(page: failure.page - first, error: failure.error, parent: run.parents[owner].key)
        }
        if let current, let incremental = intake.incremental { progress[current] = incremental }
        // The last page read, every walk ended (the feed's end waits for it).
        let outcome = try run.finished()
        let walks = outcome.walks
        let facts = body.finalFacts ?? startFacts
        var counts = outcome.counts
        // A walk whose answer replaced its children with no record kept: an empty array, or a status `on_status` maps
        // to empty.
        var kept = [Int](repeating: 0, count: walks.count)
        for (page, count) in stored.keptPerPage.enumerated() {
            if let owner = run.owner(ofPage: page), kept.indices.contains(owner) { kept[owner] += count }
        }
        counts.empty += zip(walks, kept).count { $0.replaces && $1 == 0 }
        // The parents whose child set this run replaces: those that answered with records.
        let replaced = Set(walks.filter(\.replaces).map(\.parent.key))
        let states = walks.enumerated().map { index, walk in
            var state = ChildState(
                parentKey: walk.parent.key, etag: walk.etag, lastModified: walk.lastModified,
                parentVersion: walk.parent.version, walkedAt: now, cursor: walk.cursor, cursorColumn: walk.cursorColumn)
            // A parent's cursor moves only with its own records.
            if let moved = progress[index],
                let cursor = moved.cursorToStore(stored: walk.cursor, storedColumn: walk.cursorColumn)
            {
                (state.cursor, state.cursorColumn) = (cursor, moved.columnName)
            }
            return state
        }
        let written = stored.written
        var deleted = stored.deleted

        try transaction.storeEndpointRow(kind: "collection")
        if let tally = stored.schemaTally { report.newDrift = try journalDrift(tally, now: now, in: &transaction) }
        report.record(intake, facts: facts)
        deleted += try deleteChildren(
            shape, of: fanOut, replaced: replaced, intake: intake, before: before, version: newVersion, now: now,
            in: &transaction)
        let after = try transaction.count(shape)
        report.inserted = max(0, after - before + deleted)
        report.updated = max(0, written - report.inserted)
        report.deleted = deleted
        report.records = after
        try transaction.replaceChildStates(states, keeping: fanOut.parents)

        let changed = written > 0 || deleted > 0 || schemaChanged
        report.version = changed ? newVersion : state.version
        report.outcome = changed ? .changed : .unchanged
        if !changed, replaced.isEmpty, !walks.isEmpty { report.outcome = .notModified }
        report.fanOut = counts
        if report.inserted > 0 { try records.dropTombstonesOfReturnedKeys() }
        try finish(&report, facts: facts, changed: changed, recordCount: after, shape: shape, in: &transaction)
        return report
    }

    /// Deletes, with tombstones, the rows of parents that the parent's table no longer holds, and in snapshot mode the
    /// rows of `replaced` parents the run did not see.
    ///
    /// Only rows the run did not write can go (a row written holds a record seen, of a parent walked), and when no
    /// parent walked before vanished and no child set is replaced, none can: a run of 304s reads none.
    ///
    /// - Throws: ``StoreError/emptySnapshot`` when that would empty the table and no record came (unless
    ///   `allow_empty`), ``StoreError/tooManyDeletions`` beyond `max_delete`.
    private func deleteChildren(
        _ shape: TableShape, of fanOut: FanOutBody, replaced: Set<String>, intake: RecordIntake, before: Int,
        version: Int64, now: String, in transaction: inout some StoreTransaction
    ) throws -> Int {
        let (snapshot, parents) = (endpoint.mode == .snapshot, fanOut.parents)
        // Without any parent's state (a first run, or a table that held rows before it was a child's), every row is
        // looked at: one with no parent goes.
        let mayDelete =
            fanOut.walkedBefore.isEmpty || !fanOut.walkedBefore.isSubset(of: parents) || (snapshot && !replaced.isEmpty)
        guard mayDelete else { return 0 }
        let doomed = try transaction.parentedRows(shape, before: version).filter { row in
            guard let parent = row.parent, parents.contains(parent) else { return true }
            return snapshot && replaced.contains(parent) && !intake.seen.contains(key: row.key)
        }
        guard !doomed.isEmpty else { return 0 }
        if intake.isEmpty, doomed.count >= before, !endpoint.allowEmpty {
            throw StoreError.emptySnapshot(endpoint: name, stored: before)
        }
        if !(intake.isEmpty && endpoint.allowEmpty), doomed.count > endpoint.maxDelete.allowed(stored: before) {
            throw StoreError.tooManyDeletions(
                endpoint: name, deleting: doomed.count, stored: before, limit: endpoint.maxDelete)
        }
        return try transaction.delete(doomed.map(\.row), of: shape, version: version, now: now)
    }
}
