internal import SyncCore
import SyncSupport

/// The status page at `GET /`, for people: every endpoint's freshness, last status and error, records, version,
/// last success and next poll, with a small chart of its recent runs. Built from what `/v1/endpoints` serves (the
/// model's snapshot and ``SyncCache/Freshness``) and the runs `syncd_runs` keeps; rendered as one HTML document with its
/// CSS inline and nothing fetched from elsewhere, so that it works offline, on a phone, and under a CSP that allows
/// no script at all.
struct StatusPage: Sendable {
    /// What a person is told about an endpoint's data, in one word.
    enum Freshness: String, Sendable, CaseIterable {
        /// The last poll succeeded and the next one is not overdue.
        case fresh
        /// Never synced yet, or the next poll is overdue (no daemon, or a stuck one): the data is served anyway.
        case stale
        /// The last poll failed: the data is what an earlier poll stored.
        case failing

        /// - Parameter lastPollFailed: Whether the last poll failed: an endpoint whose every poll failed is failing,
        ///   though ``SyncCache/Freshness`` calls it never synced.
        init(_ freshness: SyncCache.Freshness, lastPollFailed: Bool) {
            guard let reason = freshness.staleReason else {
                self = .fresh
                return
            }
            self = lastPollFailed || reason == .lastPollFailed ? .failing : .stale
        }
    }

    /// One endpoint's line.
    struct Row: Sendable {
        var name: String
        /// `collection` or `document`.
        var kind: String
        var freshness: Freshness
        /// Why it is stale or failing: `poll overdue`, `never synced`, `last poll failed`.
        var reason: String?
        /// The HTTP status of the last poll; nil before the first or when no answer came.
        var lastStatus: Int?
        /// The last poll's error sentence, as the upstream or syncd wrote it (escaped when rendered).
        var lastError: String?
        var consecutiveFailures: Int
        var records: Int
        var version: Int64
        /// The last successful poll (RFC 3339, UTC) and its age in whole seconds.
        var lastSuccess: String?
        var age: Int
        /// Seconds until the next poll (negative: overdue); nil when nothing is scheduled.
        var nextPoll: Int?
        /// The endpoint's last runs, oldest first.
        var runs: [SyncCache.Run]
        /// How far the daemon's sync of the endpoint has come, while one runs.
        var running: SyncProgress? = nil
        /// What the endpoint's last run did per parent, for an endpoint with a parent.
        var parents: SyncSummary.FanOut? = nil
    }

    /// The most endpoints one page lists: past it, the page says how many more there are and points at
    /// `/v1/endpoints`, so that 10,000 endpoints do not make a 10 MB page nor read 300,000 runs.
    static let maxEndpoints = 500
    /// The runs each endpoint's chart draws.
    static let runsPerChart = 30
    /// How often the page reloads itself (`<meta http-equiv="refresh">`), in seconds.
    static let refreshSeconds = 10

    var rows: [Row]
    /// The configured endpoints past ``maxEndpoints``, not listed.
    var omitted: Int
    /// When the page was made, seconds since 1970.
    var generatedAt: Double
    /// syncd's version, in the header.
    var version: String = SyncdVersion.current

    /// How many of the listed endpoints are in each state.
    func count(_ freshness: Freshness) -> Int {
        rows.count { $0.freshness == freshness }
    }
}
