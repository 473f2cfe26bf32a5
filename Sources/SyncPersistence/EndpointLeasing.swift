/// Claims on endpoints shared by the `syncd run` nodes of one database, so that each due endpoint is polled by one
/// node at a time and the nodes share one schedule: PostgreSQL's (`[cluster]`). An SQLite database belongs to one
/// process and has none (``SyncStorage/leasing(node:lease:)`` is nil).
///
/// The scheduler claims what its own schedule says is due before starting it, renews the claims of its running
/// syncs every third of the lease, and hands each back with the endpoint's next due time in one transaction
/// (``finish(_:completion:)``), so that another node sees either the claim or the new due time, never neither.
package protocol EndpointLeasing: Sendable {
    /// The node's name, as `syncd status` shows it.
    var node: String { get }
    /// This process's claims' holder: each run's ``SyncRun/claim``, which the storage checks as it stores the result.
    var holder: String { get }
    /// How long a claim lasts without renewal, in seconds.
    var lease: Double { get }

    /// Claims those of `names` whose lease is free (handed back, or run out) and that are due at `now` (seconds
    /// since 1970) by the shared schedule, or are in `requested` (a webhook asked for a run: due whatever the shared
    /// schedule says); says of the others why not.
    func claim(_ names: [String], now: Double, requested: Set<String>) async throws -> LeaseClaims

    /// Extends this process's claims on `names` by a lease from now.
    func renew(_ names: [String]) async throws

    /// Stores next due times (`nil`: due at once), records this node as the one that polled them, and hands their
    /// claims back, in one transaction; then calls `completion` with the error, if any (as
    /// ``SyncStorage/storeNextDue(_:completion:)``).
    func finish(_ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void)

    /// Hands back every claim this process holds: a node stopping lets the others take its endpoints at once.
    func releaseAll() async throws
}

/// What a claim got.
package struct LeaseClaims: Sendable, Equatable {
    /// Why an endpoint was not claimed.
    package enum Refusal: Sendable, Equatable {
        /// Another node holds it for this many more seconds (it is running there).
        case held(seconds: Double)
        /// It is not due until this time (seconds since 1970): another node ran it.
        case notDue(until: Double)
        /// Another node was taking or handing back the claim at that moment.
        case contended
    }

    /// The endpoints claimed, each with its failures since its last success as stored (whichever node ran them).
    package var claimed: [String: Int]
    /// The endpoints not claimed, and why.
    package var refused: [String: Refusal]

    package init(claimed: [String: Int] = [:], refused: [String: Refusal] = [:]) {
        self.claimed = claimed
        self.refused = refused
    }
}
