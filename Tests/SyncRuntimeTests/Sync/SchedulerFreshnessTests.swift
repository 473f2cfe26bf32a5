import Foundation
import Logging
import SampleUpstream
import SyncSystemd
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSupport

/// `freshness = "upstream"` end to end: a loopback upstream's `Cache-Control` times the scheduler's next poll, on a
/// clock the test moves; the reason is stored with the next due time for `syncd status` and the read API.
@Suite("scheduler: the upstream's freshness times the next poll")
struct SchedulerFreshnessTests {
    static func toml(_ upstream: TestUpstream) -> String {
        """
        [[endpoint]]
        name = "a"
        url = "\(upstream.url("/a"))"
        records = "$"
        primary_key = ["id"]
        interval = "10s"
        jitter = 0
        retries = 0
        freshness = "upstream"
        min_interval = "1m"

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    static func answer(_ cacheControl: String) -> UpstreamResponse {
        .json(
            Array(#"[{"id": 1}]"#.utf8),
            headers: [(name: "ETag", value: "\"v1\""), (name: "Cache-Control", value: cacheControl)])
    }

    static func schedule(_ fixture: SyncFixture) throws -> (due: SQLiteValue?, reason: SQLiteValue?) {
        (
            try fixture.scalar("SELECT next_due_at FROM syncd_endpoints WHERE name = 'a'"),
            try fixture.scalar("SELECT schedule_reason FROM syncd_endpoints WHERE name = 'a'")
        )
    }

    @Test("max-age holds the next poll an hour away, a 304 carrying it again too; no-cache brings it to min_interval")
    func maxAgeThenNoCache() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/a", Self.answer("public, max-age=3600"))
            let fixture = try SyncFixture(toml: Self.toml(upstream))
            let clock = ManualClock()
            try await SyncSchedulerTests.withScheduler(fixture, clock: clock) { _, reports in
                var reports = reports
                #expect(await reports.next()?.outcome == .changed)
                let first = try Self.schedule(fixture)
                #expect(first.due == .text(Timestamp.format(clock.wallNow + 3600)))
                #expect(first.reason == .text("max-age: fresh for 1h"))
                // The scheduler sleeps until then, not for the 10 s interval.
                let timer = await clock.firstSleeper()
                #expect(abs((timer.offset - .seconds(3600)) / .milliseconds(1)) < 1)
                clock.advance(by: .seconds(3600))
                #expect(await reports.next()?.outcome == .notModified)
                #expect(upstream.requests.last?.header("If-None-Match") == "\"v1\"")
                let second = try Self.schedule(fixture)
                #expect(second.due == .text(Timestamp.format(clock.wallNow + 3600)))
                upstream.set("/a", Self.answer("no-cache"))
                clock.advance(by: .seconds(3600))
                _ = await reports.next()
                let third = try Self.schedule(fixture)
                #expect(third.due == .text(Timestamp.format(clock.wallNow + 60)))
                #expect(third.reason == .text("no-cache: min_interval"))
                #expect(upstream.requests.count == 3)
            }
        }
    }

    @Test("no-store is said once in the log, and the answers are kept all the same")
    func noStoreOnce() async throws {
        try await withTestUpstream { upstream in
            upstream.set(
                "/a", .json(Array(#"[{"id": 1}]"#.utf8), headers: [(name: "Cache-Control", value: "no-store")]))
            let fixture = try SyncFixture(toml: Self.toml(upstream))
            let clock = ManualClock()
            let lines = Mutex<[String]>([])
            let output: JournalLogHandler.Output = { line in lines.withLock { $0.append(line) } }
            let logger = Logger(label: "syncd") { JournalLogHandler(label: $0, format: .human, output: output) }
            try await SyncSchedulerTests.withScheduler(fixture, clock: clock, logger: logger) { _, reports in
                var reports = reports
                #expect(await reports.next()?.outcome == .changed)
                let stored = try Self.schedule(fixture)
                #expect(stored.reason == .text("no-store: interval, held to min_interval"))
                clock.advance(by: .seconds(60))
                _ = await reports.next()
                #expect(upstream.requests.count == 2)
            }
            let said = lines.withLock { $0 }.filter { $0.contains("no-store") }
            #expect(said.count == 1, "\(said)")
            #expect(try fixture.scalar("SELECT count(*) FROM a") == .integer(1))
        }
    }
}
