import SyncCore

/// The `next_poll` and `schedule` columns of `syncd status`: when the daemon polls each endpoint next and why, shown
/// when some endpoint's polls follow its upstream's freshness (`freshness = "upstream"`), whose waits vary, or its
/// webhook (`webhook`), which makes it due at once.
struct ScheduleColumns {
    var isShown: Bool

    init(_ configuration: SyncConfiguration) {
        isShown = configuration.endpoints.contains { $0.freshness == .upstream || $0.webhook != nil }
    }

    /// The columns' names; none unless shown.
    var names: [String] { isShown ? ["next_poll", "schedule"] : [] }

    /// The cells of an endpoint's row, from its `status` (nil before its first run).
    func cells(_ status: SyncCache.EndpointStatus?) -> [SyncCache.SQLValue] {
        guard isShown else { return [] }
        return [status?.nextDueAt.map { .text($0) } ?? .null, status?.scheduleReason.map { .text($0) } ?? .null]
    }
}
