import SyncCore

/// `syncd status`' parent counts: what the last run of each endpoint with a parent did per parent row (walked, not
/// modified, empty, skipped, failed, left for later runs) — shown as columns only when the configuration has such an
/// endpoint, so that the table is what it always was otherwise. Empty for an endpoint without a parent, before its
/// first run, and after a run that failed before or after its walks.
struct ParentColumns {
    var isShown: Bool

    init(_ configuration: SyncConfiguration) {
        isShown = configuration.endpoints.contains { $0.isChild }
    }

    /// The columns' names; none when no endpoint has a parent.
    var names: [String] {
        guard isShown else { return [] }
        return ["walked", "not_modified", "empty", "skipped", "failed", "left"].map { "parents_" + $0 }
    }

    /// The cells of an endpoint's row, from its `status` (nil before its first run).
    func cells(_ status: SyncCache.EndpointStatus?) -> [SyncCache.SQLValue] {
        guard isShown else { return [] }
        guard let counts = status?.parents else { return Array(repeating: .null, count: 6) }
        return [counts.walked, counts.notModified, counts.empty, counts.skipped, counts.failed, counts.left].map {
            .integer(Int64($0))
        }
    }
}
