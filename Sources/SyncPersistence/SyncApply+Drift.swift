import SyncDecoding
import SyncModel

extension SyncApply {
    /// Adds a run's observations to the schema-drift journal, in the run's transaction.
    ///
    /// - Returns: the observations the journal did not hold yet, for the log to say once; none on the endpoint's first
    ///   journaled run, which sets the baseline.
    func journalDrift(_ tally: SchemaTally, now: String, in transaction: inout some StoreTransaction) throws
        -> [DriftObservations.Observation]
    {
        let stored = try transaction.driftPathTypes()
        let drift = DriftObservations(tally, columns: endpoint.columns, storedTypes: stored)
        let changed = drift.types.filter { stored[$0.key] != $0.value }.sorted { $0.key < $1.key }
        if !changed.isEmpty { try transaction.storeDriftPathTypes(changed.map { (path: $0.key, types: $0.value) }) }
        // An endpoint's first journaled run sets the baseline (the fields its configuration leaves out): the journal
        // holds it, and the log says only what changes after.
        let isBaseline = try stored.isEmpty && !transaction.hasDriftEntries()
        var known: Set<String> = []
        for (kindText, path) in try transaction.driftEntries(readingBack: drift.readBackPathsJSON) {
            if let kind = SchemaDrift.Kind(rawValue: kindText), drift.isResolved(kind: kind, path: path) {
                try transaction.deleteDriftEntry(kind: kindText, path: path)
            }
            known.insert(kindText + " " + path)
        }
        if !drift.observations.isEmpty { try transaction.noteDrift(drift.observations, now: now) }
        let added = drift.observations.filter { !known.contains($0.kind.rawValue + " " + $0.path) }
        // Past the bound, the new fields seen least recently go (this run's are never among them: it notes 256 at
        // most). Only a run that adds one can pass it.
        if added.contains(where: { $0.kind == .newField }) {
            try transaction.trimNewFields(to: DriftObservations.maxNewFields)
        }
        return isBaseline ? [] : added
    }
}
