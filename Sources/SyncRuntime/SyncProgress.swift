/// How far a running sync of one endpoint has come: what `syncd sync` shows on a terminal while it waits, and what
/// `syncd status`, `/v1/endpoints` and the status page show of the daemon's running syncs.
///
/// The counts grow as the run goes; a total is there when the upstream announces one (the count at `total_path`, or
/// the page number of a `Link` `rel="last"`), and the parents when the endpoint fans out from a parent's rows. The
/// rate and the time left are asked of a clock the caller passes, so that a test can hold time still. It is `Codable`
/// (its properties' names as keys) for a process that publishes it to another, as `syncd run` does for `syncd status`.
///
/// ```swift
/// let sink = SyncProgress.Sink { progress in
///     let left = progress.secondsLeft(at: Date().timeIntervalSince1970)
///     print(progress.endpoint, progress.pages, progress.bytes, left.map { "\(Int($0)) s left" } ?? "")
/// }
/// let summaries = try await cache.sync(["issues"], progress: sink)
/// ```
///
/// ## Topics
///
/// ### Estimates
/// - ``recordsPerSecond(at:)``
/// - ``secondsLeft(at:)``
public struct SyncProgress: Sendable, Hashable, Codable {
    /// The endpoint's name.
    public var endpoint: String
    /// When the run started, in seconds since 1970.
    public var startedAt: Double
    /// The pages whose last byte arrived (a body without pagination is one page).
    public var pages = 0
    /// The records on those pages, rejected ones included; nil when the walk does not count them (a body without
    /// pagination, or pages read only up to their first record because only an empty page ends the walk).
    public var records: Int?
    /// The bytes of the bodies received so far.
    public var bytes = 0
    /// The records the upstream announces at `total_path`, when it does.
    public var totalRecords: Int?
    /// The pages the upstream announces in a `Link` `rel="last"`, when it does.
    public var totalPages: Int?
    /// The parent rows whose children were walked, when the endpoint fans out from a parent's rows.
    public var parentsDone: Int?
    /// The parent rows to walk, when the endpoint fans out and their number is known.
    public var parentsTotal: Int?

    /// A run of `endpoint` that started at `startedAt` (seconds since 1970), with nothing counted yet.
    public init(endpoint: String, startedAt: Double) {
        self.endpoint = endpoint
        self.startedAt = startedAt
    }

    /// The records read per second since the run started; nil when the records are not counted or no time passed.
    ///
    /// - Parameter now: The time, in seconds since 1970.
    public func recordsPerSecond(at now: Double) -> Double? {
        guard let records, now > startedAt else { return nil }
        return Double(records) / (now - startedAt)
    }

    /// The bytes received per second since the run started; nil when no time passed.
    ///
    /// - Parameter now: The time, in seconds since 1970.
    public func bytesPerSecond(at now: Double) -> Double? {
        guard now > startedAt else { return nil }
        return Double(bytes) / (now - startedAt)
    }

    /// The seconds the run should still take at the pace it has kept, when a total is known: the parents' when it
    /// fans out, else the records' at `total_path`, else the pages' of `rel="last"`. Nil without a total, before any
    /// progress, or when no time passed.
    ///
    /// - Parameter now: The time, in seconds since 1970.
    public func secondsLeft(at now: Double) -> Double? {
        guard now > startedAt else { return nil }
        let done: Int
        let total: Int
        if let parentsTotal, let parentsDone {
            (done, total) = (parentsDone, parentsTotal)
        } else if let totalRecords, let records {
            (done, total) = (records, totalRecords)
        } else if let totalPages {
            (done, total) = (pages, totalPages)
        } else {
            return nil
        }
        guard done > 0 else { return nil }
        let elapsed = now - startedAt
        return max(0, elapsed * (Double(total) - Double(done)) / Double(done))
    }
}
