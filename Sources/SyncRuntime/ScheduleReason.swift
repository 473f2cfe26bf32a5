package import SyncHTTP
import SyncSupport

/// Why an endpoint's next poll is when it is: what `syncd status` shows in its `schedule` column, stored with the
/// next due time.
package enum ScheduleReason: Sendable, Hashable {
    /// The interval after a success.
    case interval
    /// Half to one and a half intervals after a success that started in a backlog.
    case spread
    /// The backoff after this many failures in a row.
    case backoff(failures: Int)
    /// The upstream's `Retry-After`, longer than the backoff.
    case retryAfter
    /// The upstream's freshness: what was left of its lifetime, from `source`.
    case fresh(UpstreamFreshness.Source, seconds: Double)
    /// The upstream said `no-cache`: the shortest wait.
    case noCache
    /// The upstream said nothing of freshness (`noStore`: it said `no-store`): the interval.
    case noFreshness(noStore: Bool)
    /// A webhook asked for a run (``ScheduleStateMachine/request(_:now:)``).
    case webhook

    /// The reason in `syncd status`' words, with `held` when the wait was held to `min_interval` or
    /// `max_interval`: `max-age: fresh for 58m`, `no-cache: min_interval`, `backoff after 3 failures`.
    package func text(held: String? = nil) -> String {
        let text: String
        switch self {
        case .interval: text = "interval"
        case .spread: text = "interval, spread after a backlog"
        case .backoff(let failures): text = "backoff after \(failures) failure\(failures == 1 ? "" : "s")"
        case .retryAfter: text = "Retry-After"
        case .fresh(let source, let seconds):
            let left = Duration.milliseconds(clampingSeconds: seconds.rounded())
            text = "\(source.rawValue): fresh for \(DurationText.format(left))"
        case .noCache: return "no-cache: min_interval"
        case .noFreshness(let noStore): text = noStore ? "no-store: interval" : "no freshness: interval"
        case .webhook: text = "webhook"
        }
        return held.map { "\(text), held to \($0)" } ?? text
    }
}
