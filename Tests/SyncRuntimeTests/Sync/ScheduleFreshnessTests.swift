import SyncHTTP
import SyncSupport
import SyncTesting
import Testing

@testable import SyncCore

/// `freshness = "upstream"`: the poll after a success waits for the answer's freshness to run out, within the
/// endpoint's `min_interval` and `max_interval`, and says why.
@Suite("schedule: the upstream's freshness times the next poll")
struct ScheduleFreshnessTests {
    /// Polled every 5 minutes, or between a minute and a day by the upstream's freshness.
    static func endpoint(jitter: Double = 0, minimum: Double = 60, maximum: Double = 86_400) -> ScheduledEndpoint {
        ScheduledEndpoint(
            name: "a", interval: .seconds(300), jitter: jitter,
            freshness: .milliseconds(clampingSeconds: minimum)...Duration.milliseconds(clampingSeconds: maximum))
    }

    /// The state after one successful run that ended at 1000 with an answer carrying `headers`.
    static func after(
        _ headers: [(String, String)], endpoint: ScheduledEndpoint = endpoint(), seed: UInt64 = 1
    ) -> ScheduleStateMachine.PersistedState? {
        var machine = ScheduleStateMachine.make([endpoint], now: 1000, seed: seed)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let freshness = UpstreamFreshness(headers: headers.map { (name: $0.0, value: $0.1) }, now: 1000)
        return machine.finished("a", outcome: .success, freshness: freshness, now: 1000)
    }

    @Test("max-age less Age, s-maxage before max-age, Expires less Date: the wait is what is left")
    func lifetimes() {
        #expect(
            Self.after([("Cache-Control", "max-age=3600")]) == .init(nextDue: 4600, reason: "max-age: fresh for 1h"))
        #expect(
            Self.after([("Cache-Control", "max-age=3600"), ("Age", "600")])
                == .init(nextDue: 4000, reason: "max-age: fresh for 50m"))
        #expect(
            Self.after([("Cache-Control", "max-age=60, s-maxage=7200")])
                == .init(nextDue: 8200, reason: "s-maxage: fresh for 2h"))
        #expect(
            Self.after([("Date", HTTPDate.format(seconds: 1000)), ("Expires", HTTPDate.format(seconds: 1900))])
                == .init(nextDue: 1900, reason: "Expires: fresh for 15m"))
    }

    @Test("the wait is held within min_interval and max_interval, and says which held it")
    func held() {
        #expect(
            Self.after([("Cache-Control", "max-age=10")])
                == .init(nextDue: 1060, reason: "max-age: fresh for 10s, held to min_interval"))
        #expect(
            Self.after([("Cache-Control", "max-age=31536000")])
                == .init(nextDue: 1000 + 86_400, reason: "max-age: fresh for 365d, held to max_interval"))
        // A stale answer (its Age past its max-age) is polled again after the shortest wait.
        #expect(
            Self.after([("Cache-Control", "max-age=60"), ("Age", "600")])
                == .init(nextDue: 1060, reason: "max-age: fresh for 0s, held to min_interval"))
    }

    @Test("no-cache waits min_interval; an answer that says nothing, or no-store, waits the interval")
    func noFreshness() {
        #expect(
            Self.after([("Cache-Control", "no-cache, max-age=3600")])
                == .init(nextDue: 1060, reason: "no-cache: min_interval"))
        #expect(Self.after([]) == .init(nextDue: 1300, reason: "no freshness: interval"))
        #expect(Self.after([("Cache-Control", "no-store")]) == .init(nextDue: 1300, reason: "no-store: interval"))
        // The interval is held within the bounds too.
        #expect(
            Self.after([], endpoint: Self.endpoint(minimum: 600))
                == .init(nextDue: 1600, reason: "no freshness: interval, held to min_interval"))
    }

    @Test("jitter only lengthens the wait, never polls before the answer goes stale, never past max_interval")
    func jitterUpward() {
        for seed in UInt64(1)...200 {
            let state = Self.after(
                [("Cache-Control", "max-age=1000")], endpoint: Self.endpoint(jitter: 0.5), seed: seed)
            let wait = (state?.nextDue ?? 0) - 1000
            #expect(wait >= 1000 && wait <= 1500, "seed \(seed): \(wait)")
            let capped = Self.after(
                [("Cache-Control", "max-age=1000")], endpoint: Self.endpoint(jitter: 0.5, maximum: 1200), seed: seed)
            #expect(((capped?.nextDue ?? 0) - 1000) <= 1200, "seed \(seed)")
        }
    }

    @Test("an endpoint polled every interval ignores the upstream's freshness; failures back off either way")
    func intervalAndFailures() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 300)], now: 1000)
        _ = machine.nextAction(now: 1000)
        let fresh = UpstreamFreshness(headers: [(name: "Cache-Control", value: "max-age=3600")], now: 1000)
        #expect(
            machine.finished("a", outcome: .success, freshness: fresh, now: 1000)
                == .init(nextDue: 1300, reason: "interval"))
        var upstream = ScheduleStateMachine.make([Self.endpoint()], now: 1000)
        _ = upstream.nextAction(now: 1000)
        let failed = upstream.finished("a", outcome: .failure(retryAfter: nil), freshness: fresh, now: 1000)
        #expect(failed?.consecutiveFailures == 1 && failed?.reason == "backoff after 1 failure")
    }

    @Test("a reload keeps a long wait the upstream asked for, and a stored one up to max_interval is believed")
    func reloadAndRestart() {
        var machine = ScheduleStateMachine.make([Self.endpoint()], now: 1000)
        _ = machine.nextAction(now: 1000)
        let fresh = UpstreamFreshness(headers: [(name: "Cache-Control", value: "max-age=7200")], now: 1000)
        #expect(machine.finished("a", outcome: .success, freshness: fresh, now: 1000)?.nextDue == 8200)
        // Changed (its jitter), the endpoint is not brought forward to its interval: the upstream's wait stands.
        machine.reconfigure([Self.endpoint(jitter: 0.1)], concurrency: 4, now: 1001)
        #expect(machine.state(of: "a")?.nextDue == 8200)
        // Its longest wait shortened below what is left, it is brought forward to it.
        machine.reconfigure([Self.endpoint(maximum: 3600)], concurrency: 4, now: 1002)
        #expect(abs((machine.state(of: "a")?.nextDue ?? 0) - (1002 + 3600)) < 0.001)
        // A restart believes a stored next due up to max_interval away, with its reason.
        let restarted = ScheduleStateMachine.make(
            [Self.endpoint(maximum: 20 * 86_400)],
            persisted: ["a": .init(nextDue: 1000 + 10 * 86_400, reason: "max-age: fresh for 10d")], now: 1000)
        #expect(restarted.state(of: "a") == .init(nextDue: 1000 + 10 * 86_400, reason: "max-age: fresh for 10d"))
    }
}
