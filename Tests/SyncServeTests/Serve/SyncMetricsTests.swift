import Testing

@testable import SyncCore
@testable import SyncServe
@testable import SyncSupport

@Suite("SyncMetrics: per-endpoint metrics in Prometheus' text format")
struct SyncMetricsTests {
    static func report(
        _ endpoint: String, _ outcome: SyncSummary.Outcome, seconds: Double, late: Double? = nil, failures: Int = 0
    ) -> SyncSummary {
        var report = SyncSummary(endpoint: endpoint, outcome: outcome)
        report.inserted = 2
        report.updated = 1
        report.deleted = 1
        report.bytes = 100
        report.duration = .nanoseconds(clampingSeconds: seconds)
        report.lateSeconds = late
        report.consecutiveFailures = failures
        return report
    }

    @Test("counters add up, histograms are cumulative with +Inf, sum and count, and the gauge is the last value")
    func text() {
        let metrics = SyncMetrics()
        #expect(metrics.text().isEmpty)
        metrics.record(Self.report("users", .changed, seconds: 0.02, late: 0.003))
        metrics.record(Self.report("users", .failed, seconds: 3, failures: 1))
        metrics.record(Self.report("flags", .notModified, seconds: 60, late: -1))
        let lines = metrics.text().split(separator: "\n").map(String.init)
        for expected in [
            #"syncd_syncs_total{endpoint="users",outcome="changed"} 1"#,
            #"syncd_syncs_total{endpoint="users",outcome="failed"} 1"#,
            #"syncd_syncs_total{endpoint="flags",outcome="not_modified"} 1"#,
            #"syncd_records_written_total{endpoint="users"} 6"#,
            #"syncd_records_deleted_total{endpoint="users"} 2"#,
            #"syncd_response_bytes_total{endpoint="users"} 200"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="users",le="0.01"} 0"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="users",le="0.025"} 1"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="users",le="2.5"} 1"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="users",le="5.0"} 2"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="users",le="+Inf"} 2"#,
            #"syncd_sync_duration_seconds_count{endpoint="users"} 2"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="flags",le="10.0"} 0"#,
            #"syncd_sync_duration_seconds_bucket{endpoint="flags",le="+Inf"} 1"#,
            #"syncd_sync_duration_seconds_sum{endpoint="flags"} 60.0"#,
            #"syncd_schedule_lag_seconds_bucket{endpoint="users",le="0.005"} 1"#,
            #"syncd_schedule_lag_seconds_count{endpoint="users"} 1"#,
            // A negative lateness (a clock stepped back) counts as none.
            #"syncd_schedule_lag_seconds_bucket{endpoint="flags",le="0.005"} 1"#,
            #"syncd_schedule_lag_seconds_sum{endpoint="flags"} 0.0"#,
            #"syncd_consecutive_failures{endpoint="users"} 1.0"#,
            #"syncd_consecutive_failures{endpoint="flags"} 0.0"#,
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        // One TYPE line a metric, series by endpoint name.
        #expect(lines.filter { $0.hasPrefix("# TYPE") }.count == 8)
        #expect(lines.contains("# TYPE syncd_sync_duration_seconds histogram"))
        let written = lines.filter { $0.hasPrefix("syncd_records_written_total") }
        #expect(written.map { $0.contains("flags") } == [true, false])
    }

    @Test("a counter stops at Int.max instead of trapping, and a label value is escaped")
    func bounds() {
        let metrics = SyncMetrics()
        var huge = Self.report("users", .changed, seconds: 1)
        huge.bytes = .max
        metrics.record(huge)
        metrics.record(huge)
        #expect(metrics.text().contains("syncd_response_bytes_total{endpoint=\"users\"} \(Int.max)"))
        #expect(SyncMetrics.escaped("a\"b\\c\nd") == #"a\"b\\c\nd"#)
    }
}
