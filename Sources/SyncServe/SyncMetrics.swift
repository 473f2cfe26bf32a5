package import SyncCore
import SyncSupport
internal import Synchronization

/// What each sync did, per endpoint, in Prometheus' text format (syncd's daemon appends it to the read API's
/// `/metrics`).
///
/// | metric | type | labels |
/// |---|---|---|
/// | `syncd_syncs_total` | counter | endpoint, outcome |
/// | `syncd_records_written_total` | counter | endpoint (inserted or updated rows) |
/// | `syncd_records_deleted_total` | counter | endpoint |
/// | `syncd_records_rejected_total` | counter | endpoint |
/// | `syncd_response_bytes_total` | counter | endpoint |
/// | `syncd_sync_duration_seconds` | histogram | endpoint |
/// | `syncd_schedule_lag_seconds` | histogram | endpoint (how late a scheduled run started after its due time) |
/// | `syncd_consecutive_failures` | gauge | endpoint |
///
/// It keeps its own table rather than registering each endpoint's series with swift-prometheus, whose registry
/// copies a metric's every series to add one: with 10,000 endpoints, the first pass spent a quarter of its time
/// there. Here a report costs a dictionary lookup, and the text is written when it is asked for.
package final class SyncMetrics: Sendable {
    private let endpoints = Mutex<[String: Series]>([:])

    /// The histograms' upper bounds in seconds: swift-prometheus' for timers, which syncd served before.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Series {
        var outcomes: [SyncSummary.Outcome: Int] = [:]
        var written = 0
        var deleted = 0
        var rejected = 0
        var bytes = 0
        var duration = Histogram()
        var lag = Histogram()
        var consecutiveFailures = 0
    }

    struct Histogram {
        /// Observations at or under each of ``SyncMetrics/bounds``, not cumulated.
        var buckets = [Int](repeating: 0, count: SyncMetrics.bounds.count)
        var sum = 0.0
        var count = 0

        mutating func observe(_ seconds: Double) {
            let value = seconds.isFinite && seconds > 0 ? seconds : 0
            if let bucket = SyncMetrics.bounds.firstIndex(where: { value <= $0 }) {
                buckets[bucket] = buckets[bucket].adding(1)
            }
            sum += value
            count = count.adding(1)
        }
    }

    package init() {}

    /// Records one run's report, with its duration and the endpoint's failures in a row as the scheduler set them.
    package func record(_ report: SyncSummary) {
        endpoints.withLock { endpoints in
            var series = endpoints.removeValue(forKey: report.endpoint) ?? Series()
            series.outcomes[report.outcome, default: 0] = series.outcomes[report.outcome, default: 0].adding(1)
            series.written = series.written.adding(report.inserted.adding(report.updated))
            series.deleted = series.deleted.adding(report.deleted)
            series.rejected = series.rejected.adding(report.rejected)
            series.bytes = series.bytes.adding(report.bytes)
            series.duration.observe(report.duration.scheduleSeconds)
            if let late = report.lateSeconds { series.lag.observe(late) }
            series.consecutiveFailures = report.consecutiveFailures
            endpoints[report.endpoint] = series
        }
    }

    /// The metrics in Prometheus' text format (version 0.0.4): each metric's `# TYPE` line, then its series by
    /// endpoint name. Nothing before the first report.
    package func text() -> String {
        let endpoints = self.endpoints.withLock { $0 }
        guard !endpoints.isEmpty else { return "" }
        // Each endpoint's label is written once; the series follow in endpoint name order.
        let rows = endpoints.sorted { $0.key < $1.key }.map {
            (label: "endpoint=\"\(Self.escaped($0.key))\"", series: $0.value)
        }
        var text = ""
        func counter(_ metric: String, _ value: (Series) -> Int) {
            text += "# TYPE \(metric) counter\n"
            for (label, series) in rows { text += "\(metric){\(label)} \(value(series))\n" }
        }
        func histogram(_ metric: String, _ value: (Series) -> Histogram) {
            text += "# TYPE \(metric) histogram\n"
            for (label, series) in rows {
                let histogram = value(series)
                var cumulative = 0
                for (bound, count) in zip(Self.bounds, histogram.buckets) {
                    cumulative = cumulative.adding(count)
                    text += "\(metric)_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
                }
                text += "\(metric)_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
                text += "\(metric)_sum{\(label)} \(histogram.sum)\n"
                text += "\(metric)_count{\(label)} \(histogram.count)\n"
            }
        }
        text += "# TYPE syncd_syncs_total counter\n"
        for (label, series) in rows {
            for (outcome, count) in series.outcomes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                text += "syncd_syncs_total{\(label),outcome=\"\(outcome.rawValue)\"} \(count)\n"
            }
        }
        counter("syncd_records_written_total", \.written)
        counter("syncd_records_deleted_total", \.deleted)
        counter("syncd_records_rejected_total", \.rejected)
        counter("syncd_response_bytes_total", \.bytes)
        histogram("syncd_sync_duration_seconds", \.duration)
        histogram("syncd_schedule_lag_seconds", \.lag)
        text += "# TYPE syncd_consecutive_failures gauge\n"
        for (label, series) in rows {
            text += "syncd_consecutive_failures{\(label)} \(Double(series.consecutiveFailures))\n"
        }
        return text
    }

    /// A label value as the text format writes it: backslash, double quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension Int {
    /// The sum, held at `Int.max` (or `.min`) instead of trapping: a counter that has run for ever stops there.
    fileprivate func adding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
