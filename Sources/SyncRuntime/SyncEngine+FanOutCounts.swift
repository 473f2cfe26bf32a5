import SyncPersistence

// What a child endpoint's run counts of its parents' walks (SyncSummary.FanOut), when the walks are done and when
// one of them fails the run.

extension SyncSummary.FanOut {
    /// Adds what `walked` did: the parents asked (a 304 included), those that answered 304, and those whose children
    /// stay unasked or by `on_status`. A walk with no records (an empty array, or a status `on_status` maps to
    /// empty) is counted as it is applied.
    mutating func add(_ walked: [SyncEngine.WalkedParent]) {
        self.walked += walked.count { $0.status != nil }
        notModified += walked.count { $0.answer == .notModified }
        skipped += walked.count { $0.answer == .skipped }
    }

    /// These counts with the walks `done` before one failed the run, and that one failed: what the failure keeps.
    /// The walks cancelled by the failure are not counted; `empty` counts the statuses `on_status` maps to empty
    /// (an empty array is known only when the walk is applied, which a failed run never is).
    func failing(after done: [SyncEngine.WalkedParent]) -> Self {
        var counts = self
        counts.add(done)
        counts.empty += done.count { $0.answer == .empty }
        counts.failed = 1
        return counts
    }
}
