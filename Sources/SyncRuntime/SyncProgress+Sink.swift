internal import FoundationEssentials
internal import Synchronization

extension SyncProgress {
    /// Where running syncs report how far they have come (``SyncProgress``), for whoever shows it: a callback at most a
    /// few times a second per endpoint, and ``running``, what every run has reached, for a reader that asks.
    ///
    /// The engine counts at the page and chunk level, never per record, and a sync started without a sink counts
    /// nothing at all. The clock says when an update is due and is the one a shown rate should be asked of: tests inject
    /// it.
    ///
    /// ```swift
    /// let sink = SyncProgress.Sink(interval: 0.5) { progress in
    ///     print("\(progress.endpoint): \(progress.pages) pages, \(progress.bytes) bytes")
    /// }
    /// _ = try await cache.sync(["issues"], progress: sink)
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Reading
    /// - ``running``
    public final class Sink: Sendable {
        /// The least time between two updates of one run that the callback hears, in seconds. The default is 0.25.
        public let interval: Double
        /// The time in seconds since 1970: when an update is due, and when a run started.
        public let now: @Sendable () -> Double
        private let onUpdate: (@Sendable (SyncProgress) -> Void)?
        private let runs = Mutex<(next: Int, byID: [Int: Run])>((0, [:]))

        /// - Parameters:
        ///   - interval: The least time between two updates of one run, in seconds; the first is heard at once.
        ///   - now: The clock, in seconds since 1970; the system's by default.
        ///   - onUpdate: Called with a run's progress when it starts and then at most once per `interval`, from the
        ///     task that syncs: it must return quickly. Nil when only ``running`` is read.
        public init(
            interval: Double = 0.25, now: (@Sendable () -> Double)? = nil,
            onUpdate: (@Sendable (SyncProgress) -> Void)? = nil
        ) {
            self.interval = interval
            self.now = now ?? { Date().timeIntervalSince1970 }
            self.onUpdate = onUpdate
        }

        /// Every running sync's progress, the earliest started first.
        public var running: [SyncProgress] {
            let runs = self.runs.withLock { Array($0.byID.values) }
            return runs.map(\.progress).sorted { ($0.startedAt, $0.endpoint) < ($1.startedAt, $1.endpoint) }
        }

        /// Starts counting a run of `endpoint`; the callback hears of it at once.
        package func begin(_ endpoint: String) -> Run {
            let run = runs.withLock { runs in
                let run = Run(sink: self, id: runs.next, progress: SyncProgress(endpoint: endpoint, startedAt: now()))
                runs.next += 1
                runs.byID[run.id] = run
                return run
            }
            onUpdate?(run.progress)
            return run
        }

        fileprivate func end(_ run: Run) {
            _ = runs.withLock { $0.byID.removeValue(forKey: run.id) }
        }

        fileprivate var isHeard: Bool { onUpdate != nil }

        fileprivate func heard(_ progress: SyncProgress) {
            onUpdate?(progress)
        }
    }
}

extension SyncProgress.Sink {
    /// The counts of one run, which the engine (and a fan-out, for its parents) adds to as the run goes.
    package final class Run: Sendable {
        private let sink: SyncProgress.Sink
        fileprivate let id: Int
        private let state: Mutex<(progress: SyncProgress, heardAt: Double)>

        fileprivate init(sink: SyncProgress.Sink, id: Int, progress: SyncProgress) {
            self.sink = sink
            self.id = id
            state = Mutex((progress, progress.startedAt))
        }

        /// What the run has reached.
        package var progress: SyncProgress { state.withLock { $0.progress } }

        /// `count` more bytes of a body arrived.
        package func received(bytes count: Int) {
            update { $0.bytes = Self.adding($0.bytes, count) }
        }

        /// A page's last byte arrived: its records, when the walk counted them, and the totals the upstream
        /// announces so far.
        package func pageEnded(records: Int?, totalRecords: Int?, totalPages: Int?) {
            update { progress in
                progress.pages = Self.adding(progress.pages, 1)
                if let records { progress.records = Self.adding(progress.records ?? 0, records) }
                if let totalRecords { progress.totalRecords = totalRecords }
                if let totalPages { progress.totalPages = totalPages }
            }
        }

        /// The parent rows walked so far, of `total` when it is known: what a fan-out reports.
        package func parents(done: Int, total: Int?) {
            update { progress in
                progress.parentsDone = max(0, done)
                progress.parentsTotal = total.map { max(0, $0) }
            }
        }

        /// The run ended: ``SyncProgress.Sink/running`` no longer holds it, and the callback hears no more of it.
        package func end() {
            sink.end(self)
        }

        /// Changes the counts, and tells the sink's callback when the last time it heard of this run is at least
        /// an interval ago.
        private func update(_ change: (inout SyncProgress) -> Void) {
            guard sink.isHeard else {
                state.withLock { change(&$0.progress) }
                return
            }
            let now = sink.now()
            let interval = sink.interval
            let due: SyncProgress? = state.withLock { state in
                change(&state.progress)
                guard now - state.heardAt >= interval else { return nil }
                state.heardAt = now
                return state.progress
            }
            if let due { sink.heard(due) }
        }

        /// A count plus `more`, held at `Int.max` rather than overflowing.
        private static func adding(_ count: Int, _ more: Int) -> Int {
            let (sum, overflow) = count.addingReportingOverflow(max(0, more))
            return overflow ? Int.max : sum
        }
    }
}
