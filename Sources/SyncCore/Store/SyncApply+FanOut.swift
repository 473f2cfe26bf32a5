// What one run of a child endpoint means for the stored data, whatever the store: every walked parent's records in
// one transaction, each parent's child set replaced, the children of vanished parents deleted.

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
        _ fanOut: FanOutBody, facts: RunFacts, in transaction: inout some StoreTransaction
    ) throws -> SyncSummary {
        let (shape, decoder) = (TableShape(endpoint), endpoint.recordDecoder)
        let (state, newVersion, schemaChanged, before) = try openCollection(shape, in: &transaction)
        var report = SyncSummary(endpoint: name, outcome: .unchanged)
        let now = Timestamp.format(facts.finishedAt)

        var intake = RecordIntake(endpoint: endpoint, keyNames: shape.keyNames, now: facts.finishedAt)
        var records = try transaction.makeRecordWriter(shape, version: newVersion, now: now)
        var written = 0
        var deleted = 0
        var tally: SchemaTally?
        var counts = fanOut.counts
        // The parents whose child set this run replaces: those that answered with records.
        var replaced: Set<String> = []
        var states: [ChildState] = []
        let sources = endpoint.fanOut?.sources ?? []
        for walk in fanOut.walks {
            var childState = ChildState(
                parentKey: walk.parent.key, etag: walk.etag, lastModified: walk.lastModified,
                parentVersion: walk.parent.version, walkedAt: now, cursor: walk.cursor, cursorColumn: walk.cursorColumn)
            guard let body = walk.body else {
                states.append(childState)
                continue
            }
            replaced.insert(walk.parent.key)
            let values = walk.parent.values
            let extra = sources.map { $0 < values.count ? values[$0] : .null } + [.text(walk.parent.key)]
            let kept = intake.received - intake.rejected
            // Each parent's cursor moves with its own records only.
            intake.restartCursor()
            let stored = try store(body, decoder: decoder, intake: &intake, into: &records, appending: extra)
            if let progress = intake.incremental,
                let cursor = progress.cursorToStore(stored: walk.cursor, storedColumn: walk.cursorColumn)
            {
                (childState.cursor, childState.cursorColumn) = (cursor, progress.columnName)
            }
            states.append(childState)
            written += stored.written
            deleted += stored.deleted
            if intake.received - intake.rejected == kept { counts.empty += 1 }
            if let page = stored.schemaTally {
                if tally == nil { tally = page } else { tally?.merge(page) }
            }
        }

        try transaction.storeEndpointRow(kind: "collection")
        if let tally { report.newDrift = try journalDrift(tally, now: now, in: &transaction) }
        report.record(intake, facts: facts)
        deleted += try deleteChildren(
            shape, of: fanOut.parents, replaced: replaced, intake: intake, before: before, version: newVersion,
            now: now, in: &transaction)
        let after = try transaction.count(shape)
        report.inserted = max(0, after - before + deleted)
        report.updated = max(0, written - report.inserted)
        report.deleted = deleted
        report.records = after
        try transaction.replaceChildStates(states, keeping: fanOut.parents)

        let changed = written > 0 || deleted > 0 || schemaChanged
        report.version = changed ? newVersion : state.version
        report.outcome = changed ? .changed : .unchanged
        if !changed, replaced.isEmpty, !fanOut.walks.isEmpty { report.outcome = .notModified }
        report.fanOut = counts
        if report.inserted > 0 { try records.dropTombstonesOfReturnedKeys() }
        try finish(&report, facts: facts, changed: changed, recordCount: after, shape: shape, in: &transaction)
        return report
    }

    /// Deletes, with tombstones, the rows of parents that `parents` no longer holds, and in snapshot mode the rows of
    /// `replaced` parents the run did not see.
    ///
    /// - Throws: ``StoreError/emptySnapshot`` when that would empty the table and no record came (unless
    ///   `allow_empty`), ``StoreError/tooManyDeletions`` beyond `max_delete`.
    private func deleteChildren(
        _ shape: TableShape, of parents: Set<String>, replaced: Set<String>, intake: RecordIntake, before: Int,
        version: Int64, now: String, in transaction: inout some StoreTransaction
    ) throws -> Int {
        let snapshot = endpoint.mode == .snapshot
        let doomed = try transaction.parentedRows(shape).filter { row in
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
