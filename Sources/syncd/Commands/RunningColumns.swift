import FoundationEssentials
import SyncCore
import SyncSupport

/// `syncd status`'s running part: for each endpoint the daemon syncs now, since when and how far it has come — shown
/// as columns only while some sync runs, so that the table is what it always was otherwise.
struct RunningColumns {
    /// The running syncs by endpoint name, as the daemon last published them (``RunningSyncsFile``).
    var running: [String: SyncProgress]

    init(store: SyncStore, now: Double = Date().timeIntervalSince1970) {
        let file = RunningSyncsFile(stateDirectory: TokenTimes.directory(store))
        running = Dictionary(file.read(now: now).map { ($0.endpoint, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The columns' names; none while nothing runs.
    var names: [String] {
        running.isEmpty
            ? [] : ["running_since", "running_pages", "running_records", "running_bytes", "running_parents"]
    }

    /// The cells of `endpoint`'s row: null where it is not running; records null when the sync does not count them;
    /// parents as `done/total` (or `done`) for an endpoint with a parent.
    func cells(_ endpoint: String) -> [SyncCache.SQLValue] {
        guard !running.isEmpty else { return [] }
        guard let progress = running[endpoint] else { return [.null, .null, .null, .null, .null] }
        let parents = progress.parentsDone.map { done in progress.parentsTotal.map { "\(done)/\($0)" } ?? "\(done)" }
        return [
            .text(Timestamp.format(progress.startedAt)), .integer(Int64(progress.pages)),
            progress.records.map { .integer(Int64($0)) } ?? .null, .integer(Int64(progress.bytes)),
            parents.map { .text($0) } ?? .null,
        ]
    }
}
