import SyncPersistence

// Why a run stored nothing: what SyncEngine records of a failed or refused run (its row and its endpoint's).

/// Why a run stored nothing, already phrased for people.
struct SyncFailure: Error {
    var message: String
    var status: Int?
    var bytes: Int
    var outcome: SyncSummary.Outcome = .failed
    /// The pages fetched before the failure, when it is known.
    var pages: Int?
    /// Seconds from now that the upstream asked to wait.
    var retryAfter: Double?
    /// What a child endpoint's run did per parent before the walk that failed it (``SyncSummary/FanOut/failed``
    /// 1), kept with the failure.
    var fanOut: SyncSummary.FanOut?
}
