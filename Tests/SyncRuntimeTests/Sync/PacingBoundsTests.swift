import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore

/// Waits computed from a configured interval or an upstream's RateLimit headers are clamped: a huge one neither traps
/// the scheduler nor slows an endpoint for good.
@Suite("sync: huge waits are clamped")
struct PacingBoundsTests {
    @Test("an interval past 64-bit nanoseconds (200000d) leaves the scheduler running after the first sync")
    func hugeInterval() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1}]"#)
            var fixture = try SyncFixture(toml: SyncSchedulerTests.toml(upstream, names: ["a"]))
            fixture.configuration.plans[0].interval = .seconds(200_000 * 86_400)
            let clock = ManualClock()
            try await SyncSchedulerTests.withScheduler(fixture, clock: clock) { _, reports in
                var reports = reports
                #expect(await reports.next()?.outcome == .changed)
                // Still scheduling: once the interval has passed, the endpoint syncs again.
                clock.advance(by: .seconds(200_000 * 86_400 + 1))
                #expect(await reports.next()?.endpoint == "a")
                #expect(upstream.requests.count == 2)
            }
        }
    }

    @Test("RateLimit-Reset: 1e300 slows the next request by retry_max_delay once; then the pace recovers")
    func hugeReset() async throws {
        try await withTestUpstream { upstream in
            let answered = Mutex(0)
            upstream.route("/flags.json") { _ in
                let first = answered.withLock { count in
                    count += 1
                    return count == 1
                }
                return jsonAnswer(
                    #"{"on": true}"#,
                    headers: first ? [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "1e300")] : [])
            }
            var fixture = try SyncFixture(toml: RuntimeBoundsTests.document(upstream.url("/flags.json")))
            fixture.sleepAdvancesClock = true
            let engine = fixture.engine
            let endpoint = try fixture.endpoint("flags")
            var outcomes: [SyncSummary.Outcome] = []
            for _ in 0..<4 { outcomes.append(await engine.sync(endpoint).outcome) }
            // Every sync was answered by one request, and only the first answer's reset made one wait, clamped.
            #expect(outcomes == [.changed, .unchanged, .unchanged, .unchanged])
            #expect(upstream.requests.count == 4)
            #expect(fixture.sleeps.durations == [.seconds(300)])
        }
    }
}
