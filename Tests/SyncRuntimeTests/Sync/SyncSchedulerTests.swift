import Foundation
import Logging
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncSQLite
@testable import SyncSupport

/// The scheduler driving real syncs against a loopback upstream, on a clock the test moves: no sleeps.
@Suite("scheduler: syncs on time")
struct SyncSchedulerTests {
    static func toml(_ upstream: TestUpstream, names: [String] = ["a", "b"], interval: String = "10s") -> String {
        names.map { name in
            """
            [[endpoint]]
            name = "\(name)"
            url = "\(upstream.url("/\(name)"))"
            records = "$"
            primary_key = ["id"]
            interval = "\(interval)"
            jitter = 0
            retries = 0

            [endpoint.columns]
            id = { path = "id", type = "integer" }

            """
        }.joined(separator: "\n")
    }

    /// A scheduler running in the background of `body`, with its reports as a stream.
    static func withScheduler(
        _ fixture: SyncFixture, clock: ManualClock,
        persisted: [String: ScheduleStateMachine.PersistedState] = [:],
        timerResolution: Double = 0, logger: Logger = Logger(label: "test"),
        _ body: (SyncScheduler<ManualClock>, AsyncStream<SyncSummary>.Iterator) async throws -> Void
    ) async throws {
        let (reports, reported) = AsyncStream.makeStream(of: SyncSummary.self)
        let engine = SyncEngine(
            storage: SQLiteSyncStorage(database: fixture.database),
            transport: SchemeTransport(http: SharedTransport.http),
            environment: [:],
            logger: logger, now: { clock.wallNow })
        let scheduler = SyncScheduler(
            configuration: fixture.configuration, engine: engine, clock: clock, persisted: persisted,
            timerResolution: timerResolution, onReport: { reported.yield($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            try await body(scheduler, reports.makeAsyncIterator())
            group.cancelAll()
        }
    }

    /// Endpoints `a` and `b` (10 s interval, no jitter) on a test upstream, under a scheduler; `dueIn` gives an
    /// endpoint's persisted next due time in seconds from the clock's start (one not named is due at once).
    static func withPair(
        dueIn: [String: Double] = [:], timerResolution: Double = 0,
        _ body: (TestUpstream, SyncFixture, ManualClock, AsyncStream<SyncSummary>.Iterator) async throws -> Void
    ) async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1}]"#)
            upstream.setJSON("/b", #"[{"id": 2}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream))
            let clock = ManualClock()
            let persisted = dueIn.mapValues {
                ScheduleStateMachine.PersistedState(nextDue: clock.wallNow + $0, consecutiveFailures: 0)
            }
            try await withScheduler(fixture, clock: clock, persisted: persisted, timerResolution: timerResolution) {
                _, reports in
                try await body(upstream, fixture, clock, reports)
            }
        }
    }

    @Test("a run asked for is answered: coming while the scheduler runs, not coming once it has ended")
    func requestAnswered() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1}]"#)
            upstream.setJSON("/b", #"[{"id": 2}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream))
            let engine = SyncEngine(
                storage: SQLiteSyncStorage(database: fixture.database),
                transport: SchemeTransport(http: SharedTransport.http), environment: [:],
                logger: Logger(label: "test"), now: { Date().timeIntervalSince1970 })
            let scheduler = SyncScheduler(
                configuration: fixture.configuration, engine: engine, clock: ManualClock(), timerResolution: 0)
            let running = Task { await scheduler.run() }
            let ask: @Sendable (String) async -> Bool = { name in
                await withCheckedContinuation { continuation in
                    scheduler.requestRun(name) { continuation.resume(returning: $0) }
                }
            }
            #expect(await ask("a"))
            #expect(await ask("nope") == false)
            running.cancel()
            await running.value
            // Ended: the asker hears "not coming" instead of waiting for an answer that would never come.
            #expect(await ask("a") == false)
        }
    }

    @Test("every endpoint syncs at start, then again each interval")
    func interval() async throws {
        try await Self.withPair { upstream, fixture, clock, reports in
            var reports = reports
            let first = [await reports.next(), await reports.next()].compactMap { $0?.endpoint }.sorted()
            #expect(first == ["a", "b"])
            #expect(upstream.requests.count == 2)
            clock.advance(by: .seconds(10))
            let second = [await reports.next(), await reports.next()].compactMap { $0?.endpoint }.sorted()
            #expect(second == ["a", "b"])
            #expect(upstream.requests.count == 4)
            let nextDue = try fixture.scalar("SELECT next_due_at FROM syncd_endpoints WHERE name = 'a'")
            #expect(nextDue == .text(Timestamp.format(clock.wallNow + 10)))
        }
    }

    @Test("timers fire on the resolution's grid: runs due close together start on one wake-up, never early")
    func timerGrid() async throws {
        // Due 10.5 s and 10.7 s from now; with a 1-second grid both wait for the timer at +11 s.
        try await Self.withPair(dueIn: ["a": 10.5, "b": 10.7], timerResolution: 1) { upstream, _, clock, reports in
            var reports = reports
            // One timer, at the grid's +11 s, rather than one at +10.5 s and another at +10.7 s.
            let timer = await clock.firstSleeper()
            let offset = timer.offset - .seconds(11)
            #expect(offset < .milliseconds(1) && offset > .milliseconds(-1))
            #expect(upstream.requests.isEmpty)
            clock.advance(by: .seconds(11))
            let both = [await reports.next(), await reports.next()].compactMap { $0 }
            #expect(both.map(\.endpoint).sorted() == ["a", "b"])
            let late = both.sorted { $0.endpoint < $1.endpoint }.map { $0.lateSeconds ?? -1 }
            #expect(abs(late[0] - 0.5) < 0.001 && abs(late[1] - 0.3) < 0.001)
            #expect(upstream.requests.count == 2)
        }
    }

    @Test("a restart resumes the persisted schedule instead of syncing everything at once")
    func resume() async throws {
        try await Self.withPair(dueIn: ["a": 30]) { upstream, _, clock, reports in
            var reports = reports
            #expect(await reports.next()?.endpoint == "b")
            clock.advance(by: .seconds(10))
            #expect(await reports.next()?.endpoint == "b")
            clock.advance(by: .seconds(20))
            let both = [await reports.next(), await reports.next()].compactMap { $0?.endpoint }.sorted()
            #expect(both == ["a", "b"])
            #expect(upstream.requests.filter { $0.path == "/a" }.count == 1)
        }
    }

    @Test("each scheduled run records its due time and how late it started; a run nobody scheduled records none")
    func dueTime() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream, names: ["a"]))
            #expect(try await fixture.sync("a").lateSeconds == nil)
            let clock = ManualClock()
            let start = clock.wallNow
            // Due 7 s before the scheduler starts, as after a daemon was down: the first run is 7 s late.
            let persisted = ["a": ScheduleStateMachine.PersistedState(nextDue: start - 7, consecutiveFailures: 0)]
            try await Self.withScheduler(fixture, clock: clock, persisted: persisted) { _, reports in
                var reports = reports
                let late = try #require(await reports.next()?.lateSeconds)
                #expect(abs(late - 7) < 0.001)
                clock.advance(by: .seconds(10))
                let onTime = try #require(await reports.next()?.lateSeconds)
                #expect(abs(onTime) < 0.001)
            }
            let runs = try fixture.rows("SELECT started_at, due_at FROM syncd_runs ORDER BY id")
            #expect(runs.map { $0.text("due_at") } == [nil, Timestamp.format(start - 7), Timestamp.format(start + 10)])
            #expect(runs.last?.text("started_at") == Timestamp.format(start + 10))
        }
    }

    @Test("an endpoint whose columns changed while the daemon was down is due at once; the others keep their time")
    func columnsChangedWhileDown() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1, "seen": "2024-05-01T10:00:00Z"}]"#)
            upstream.setJSON("/b", #"[{"id": 2}]"#)
            var fixture = try SyncFixture(toml: Self.toml(upstream))
            // Stored with their columns: a failed first sync leaves no signature to compare, and nothing is stale.
            for name in ["a", "b"] {
                let report = try await fixture.sync(name)
                try #require(report.error == nil && report.outcome == .changed, "\(report)")
            }
            let later = Timestamp.format(fixture.clock.now + 3600)
            try fixture.database.performBlocking {
                try $0.execute("UPDATE syncd_endpoints SET next_due_at = ?", [.text(later)])
            }
            let before = fixture.configuration.plans
            let storage = SQLiteSyncStorage(database: fixture.database)
            let unchanged = try await storage.schedule(of: before)
            #expect(unchanged["a"]?.nextDue == Timestamp.parse(later))
            #expect(unchanged["b"]?.nextDue == Timestamp.parse(later))
            let idColumn = #"id = { path = "id", type = "integer" }"#
            let withSeen = Self.toml(upstream, names: ["a"]).replacingOccurrences(
                of: idColumn, with: idColumn + "\n" + #"seen = { path = "seen", type = "timestamp" }"#)
            try fixture.reconfigure(withSeen + "\n" + Self.toml(upstream, names: ["b"]))
            let after = fixture.configuration.plans
            let changed = try await storage.schedule(of: after)
            #expect(changed["a"]?.nextDue == nil)
            #expect(changed["b"]?.nextDue == Timestamp.parse(later))
        }
    }

    @Test("a 429's Retry-After delays the next attempt; a failure backs off, then success resumes the interval")
    func retryAfter() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/a", .json(Array("{}".utf8), status: 429, headers: [(name: "Retry-After", value: "120")]))
            let fixture = try SyncFixture(toml: Self.toml(upstream, names: ["a"]))
            let clock = ManualClock()
            try await Self.withScheduler(fixture, clock: clock) { _, reports in
                var reports = reports
                let limited = await reports.next()
                #expect(limited?.outcome == .failed && limited?.retryAfter == 120)
                let nextDue = try fixture.scalar("SELECT next_due_at FROM syncd_endpoints WHERE name = 'a'")
                #expect(nextDue == .text(Timestamp.format(clock.wallNow + 120)))
                upstream.setJSON("/a", #"[{"id": 1}]"#)
                clock.advance(by: .seconds(120))
                #expect(await reports.next()?.outcome == .changed)
                #expect(upstream.requests.count == 2)
                let failures = try fixture.scalar("SELECT consecutive_failures FROM syncd_endpoints WHERE name = 'a'")
                #expect(failures == .integer(0))
            }
        }
    }

    @Test("a reload adds endpoints, which sync at once")
    func reload() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/a", #"[{"id": 1}]"#)
            upstream.setJSON("/c", #"[{"id": 3}]"#)
            var fixture = try SyncFixture(toml: Self.toml(upstream, names: ["a"]))
            let clock = ManualClock()
            let reloaded = try SyncConfiguration.parse(
                Self.toml(upstream, names: ["a", "c"]), sourcePath: "syncd.toml")
            try await Self.withScheduler(fixture, clock: clock) { scheduler, reports in
                var reports = reports
                #expect(await reports.next()?.endpoint == "a")
                scheduler.reload(reloaded)
                #expect(await reports.next()?.endpoint == "c")
            }
            try fixture.reconfigure(Self.toml(upstream, names: ["a", "c"]))
            #expect(try fixture.scalar("SELECT count(*) FROM c") == .integer(1))
        }
    }

    @Test("an upstream down for several polls is retried with growing backoff, then recovers on the interval")
    func backoffThenRecovery() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/a", .json(Array("{}".utf8), status: 500))
            let fixture = try SyncFixture(toml: Self.toml(upstream, names: ["a"]))
            let clock = ManualClock()
            try await Self.withScheduler(fixture, clock: clock) { _, reports in
                var reports = reports
                // Interval 10 s: backoff from a quarter of it, doubling, each ±20%.
                for (failures, base) in [(1, 2.5), (2, 5.0), (3, 10.0)] {
                    let report = await reports.next()
                    #expect(report?.outcome == .failed)
                    let state = try fixture.rows(
                        "SELECT next_due_at, consecutive_failures FROM syncd_endpoints WHERE name = 'a'"
                    ).first
                    #expect(state?.integer("consecutive_failures") == Int64(failures))
                    let due = try #require(state?.text("next_due_at").flatMap(Timestamp.parse)) - clock.wallNow
                    #expect(
                        due >= base * 0.8 - 0.001 && due <= base * 1.2 + 0.001, "after \(failures) failures: \(due) s")
                    clock.advance(by: .milliseconds(Int64(base * 1.2 * 1000) + 1))
                }
                let stillDown = await reports.next()
                #expect(stillDown?.outcome == .failed)
                upstream.setJSON("/a", #"[{"id": 1}]"#)
                clock.advance(by: .seconds(24))
                let recovered = await reports.next()
                #expect(recovered?.outcome == .changed)
                let failures = try fixture.scalar("SELECT consecutive_failures FROM syncd_endpoints WHERE name = 'a'")
                #expect(failures == .integer(0))
                let due = try fixture.scalar("SELECT next_due_at FROM syncd_endpoints WHERE name = 'a'")
                #expect(due == .text(Timestamp.format(clock.wallNow + 10)))
            }
        }
    }
}
