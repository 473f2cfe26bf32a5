package import CoreMetrics
internal import Synchronization

/// What each sync did, as metrics through swift-metrics: the program chooses the backend (syncd's daemon
/// serves them as Prometheus text on the read API's `/metrics`).
///
/// | metric | type | labels |
/// |---|---|---|
/// | `syncd_syncs_total` | counter | endpoint, outcome |
/// | `syncd_records_written_total` | counter | endpoint (inserted or updated rows) |
/// | `syncd_records_deleted_total` | counter | endpoint |
/// | `syncd_records_rejected_total` | counter | endpoint |
/// | `syncd_response_bytes_total` | counter | endpoint |
/// | `syncd_sync_duration_seconds` | timer | endpoint |
/// | `syncd_schedule_lag_seconds` | timer | endpoint (how late a scheduled run started after its due time) |
/// | `syncd_consecutive_failures` | gauge | endpoint |
package final class SyncMetrics: Sendable {
    private let factory: any MetricsFactory
    private let handles = Mutex<[String: EndpointHandles]>([:])

    private struct EndpointHandles: Sendable {
        var outcomes: [SyncSummary.Outcome: Counter] = [:]
        var written: Counter
        var deleted: Counter
        var rejected: Counter
        var bytes: Counter
        var duration: Timer
        var lag: Timer
        var consecutiveFailures: Gauge
    }

    /// - Parameter factory: Where the metrics go: a registry of one's own, or the process's bootstrapped one.
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Records one run's report, with its duration and the endpoint's failures in a row as the scheduler set them.
    package func record(_ report: SyncSummary) {
        let factory = self.factory
        handles.withLock { handles in
            let dimensions = [("endpoint", report.endpoint)]
            var endpoint =
                handles[report.endpoint]
                ?? EndpointHandles(
                    written: Counter(label: "syncd_records_written_total", dimensions: dimensions, factory: factory),
                    deleted: Counter(label: "syncd_records_deleted_total", dimensions: dimensions, factory: factory),
                    rejected: Counter(label: "syncd_records_rejected_total", dimensions: dimensions, factory: factory),
                    bytes: Counter(label: "syncd_response_bytes_total", dimensions: dimensions, factory: factory),
                    duration: Timer(label: "syncd_sync_duration_seconds", dimensions: dimensions, factory: factory),
                    lag: Timer(label: "syncd_schedule_lag_seconds", dimensions: dimensions, factory: factory),
                    consecutiveFailures: Gauge(
                        label: "syncd_consecutive_failures", dimensions: dimensions, factory: factory))
            let outcome =
                endpoint.outcomes[report.outcome]
                ?? Counter(
                    label: "syncd_syncs_total", dimensions: dimensions + [("outcome", report.outcome.rawValue)],
                    factory: factory)
            endpoint.outcomes[report.outcome] = outcome
            handles[report.endpoint] = endpoint
            outcome.increment()
            endpoint.written.increment(by: report.inserted + report.updated)
            endpoint.deleted.increment(by: report.deleted)
            endpoint.rejected.increment(by: report.rejected)
            endpoint.bytes.increment(by: report.bytes)
            endpoint.duration.recordNanoseconds(Self.nanoseconds(report.duration.scheduleSeconds))
            if let late = report.lateSeconds { endpoint.lag.recordNanoseconds(Self.nanoseconds(late)) }
            endpoint.consecutiveFailures.record(report.consecutiveFailures)
        }
    }

    /// Seconds as nanoseconds for a timer, clamped to what Int64 holds (a due time restored from an edited database
    /// can be anything).
    static func nanoseconds(_ seconds: Double) -> Int64 {
        let nanoseconds = seconds * 1e9
        guard nanoseconds.isFinite, nanoseconds > 0 else { return 0 }
        return nanoseconds >= 9.2e18 ? Int64.max : Int64(nanoseconds)
    }
}
