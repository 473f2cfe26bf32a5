import SyncPersistence
import SyncRuntime
import SyncSupport
internal import Synchronization

/// Read-through freshness: a reader that wants a copy no older than it says (`syncd get --max-age`, a read API
/// request's `Cache-Control: max-age`) has the endpoint synced first when its copy is older.
extension SyncCache {
    /// What ``refresh(_:olderThan:within:)`` did.
    public enum Refresh: Sendable, Equatable {
        /// The copy was younger than asked: nothing was fetched.
        case fresh
        /// A run ended with the copy brought up to date: records stored, or a 304.
        case synced
        /// The run failed or did not end in time, or the endpoint is backing off after failures: the stored copy is
        /// all there is (stale-if-error). The reason is one sentence.
        case stale(String)
    }

    /// Syncs `endpoint` first when its copy is older than `maxAge`, and returns once the copy is fresh or it is known
    /// that it cannot be.
    ///
    /// While ``run(onSync:)`` runs, the run is its schedule's (``requestSync(_:parentKey:)``): readers asking at once share one
    /// run, a run already under way is waited for instead of followed, the endpoint's rate limit paces it, and with
    /// other nodes the claim decides who runs it. Otherwise this cache syncs the endpoint itself.
    ///
    /// ```swift
    /// if case .stale(let why) = try await cache.refresh("users", olderThan: .seconds(30)) { print("stale: \(why)") }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The name of the configured endpoint to keep fresh.
    ///   - maxAge: The oldest the copy may be; an older copy, or one never synced, is synced first.
    ///   - timeout: How long to wait for the run; past it the answer is ``Refresh/stale(_:)``.
    /// - Throws: ``SyncError/Code/unknownEndpoint``, or when the states cannot be read or the cache reads only.
    public func refresh(
        _ endpoint: String, olderThan maxAge: Duration, within timeout: Duration = .seconds(30)
    ) async throws(SyncError) -> Refresh {
        let writer = try writable("refresh an endpoint")
        guard configuration.plan(named: endpoint) != nil else { throw .unknownEndpoint(endpoint) }
        if try await age(of: endpoint, now: writer.now()).map({ $0 <= maxAge.scheduleSeconds }) == true {
            return .fresh
        }
        guard let scheduler = live.withLock({ $0.scheduler }) else {
            let summary = try await sync(endpoint)
            return summary.outcome.isFailure ? .stale(Self.staleReason(summary)) : .synced
        }
        let waiter = reports.register(endpoint)
        // Answered at once by the schedule's loop, `false` when it is stopping or has ended (SyncScheduler drains
        // what it did not take): never left waiting.
        let coming = await withCheckedContinuation { continuation in
            scheduler.requestRun(endpoint, followRunning: false) { continuation.resume(returning: $0) }
        }
        guard coming else {
            reports.cancel(waiter)
            return .stale("the upstream is failing and syncd is backing off")
        }
        guard let summary = await reports.wait(waiter, within: timeout) else {
            return .stale("the sync did not end within \(DurationText.format(timeout))")
        }
        return summary.outcome.isFailure ? .stale(Self.staleReason(summary)) : .synced
    }

    /// Seconds since the endpoint's last successful run (a 304 too); nil before its first.
    private func age(of endpoint: String, now: Double) async throws(SyncError) -> Double? {
        let status = try await statuses().first { $0.name == endpoint }
        return status?.lastSuccessAt.flatMap(Timestamp.parse).map { now - $0 }
    }

    private static func staleReason(_ summary: SyncSummary) -> String {
        "the sync failed: " + (summary.error ?? "\(summary.outcome)")
    }
}

extension SyncCache.Refresh {
    /// What the answer's `Cache-Status` (RFC 9211) says of this refresh: `syncd; fwd=request; stored` when it synced,
    /// `syncd; hit; fwd=request; detail="stale-if-error: …"` when the copy is stale; nil when it was fresh (the
    /// answer's own then stands). The read API and `syncd get --max-age` say the same.
    package var cacheStatus: String? {
        switch self {
        case .fresh: nil
        case .synced: "syncd; fwd=request; stored"
        case .stale(let reason): Self.staleStatus("stale-if-error: \(reason)")
        }
    }

    /// A stale answer's `Cache-Status`, its `detail` the sentence as a structured-field string (RFC 8941 §3.3.3):
    /// printable ASCII, `"` and `\` escaped, at most 200 characters.
    package static func staleStatus(_ detail: String) -> String {
        var quoted = "\""
        for scalar in detail.unicodeScalars.prefix(200) {
            switch scalar {
            case "\"", "\\": quoted += "\\" + String(scalar)
            case " "..."~": quoted.unicodeScalars.append(scalar)
            default: quoted += "?"
            }
        }
        return "syncd; hit; fwd=request; detail=" + quoted + "\""
    }
}

/// The readers waiting for an endpoint's next run to end (``SyncCache/refresh(_:olderThan:within:)``), told by the
/// schedule's reports.
final class ReportWaiters: Sendable {
    struct Waiter: Hashable, Sendable {
        var endpoint: String
        var token: Int
    }

    private struct State {
        var next = 0
        var waiting: [Waiter: CheckedContinuation<SyncSummary?, Never>] = [:]
        /// Reports that came for a registered waiter before it waited.
        var arrived: [Waiter: SyncSummary] = [:]
        var registered: Set<Waiter> = []
    }

    private let state = Mutex(State())

    /// Registers a waiter before the run is asked for, so that a report that comes first is not missed.
    func register(_ endpoint: String) -> Waiter {
        state.withLock { state in
            defer { state.next += 1 }
            let waiter = Waiter(endpoint: endpoint, token: state.next)
            state.registered.insert(waiter)
            return waiter
        }
    }

    func cancel(_ waiter: Waiter) {
        let continuation = state.withLock { state in
            state.registered.remove(waiter)
            state.arrived[waiter] = nil
            return state.waiting.removeValue(forKey: waiter)
        }
        continuation?.resume(returning: nil)
    }

    /// The report of the endpoint's next run after ``register(_:)``; nil when `timeout` passes first.
    func wait(_ waiter: Waiter, within timeout: Duration) async -> SyncSummary? {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.cancel(waiter)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ready: SyncSummary?? = state.withLock { state in
                if let summary = state.arrived.removeValue(forKey: waiter) {
                    state.registered.remove(waiter)
                    return .some(summary)
                }
                guard state.registered.contains(waiter) else { return .some(nil) }
                state.waiting[waiter] = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// How many readers wait for a run of `endpoint` (the tests wait for them all before letting the run end).
    func count(of endpoint: String) -> Int {
        state.withLock { state in state.registered.count { $0.endpoint == endpoint } }
    }

    /// Tells the endpoint's waiters its run ended.
    func report(_ summary: SyncSummary) {
        let continuations = state.withLock { state in
            var woken: [CheckedContinuation<SyncSummary?, Never>] = []
            for waiter in state.registered where waiter.endpoint == summary.endpoint {
                if let continuation = state.waiting.removeValue(forKey: waiter) {
                    woken.append(continuation)
                    state.registered.remove(waiter)
                } else {
                    state.arrived[waiter] = summary
                }
            }
            return woken
        }
        for continuation in continuations { continuation.resume(returning: summary) }
    }
}
