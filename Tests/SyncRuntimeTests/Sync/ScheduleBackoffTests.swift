import Testing

@testable import SyncCore
@testable import SyncRuntime

@Suite("schedule: failures back off, Retry-After is honoured")
struct ScheduleBackoffTests {
    /// Fails `a` `count` times in a row and returns each wait.
    static func waitsAfterFailures(
        _ endpoint: ScheduledEndpoint,
        count: Int,
        policy: SchedulePolicy = .exact,
        retryAfter: Double? = nil
    ) -> [Double] {
        var machine = ScheduleStateMachine.make([endpoint], policy: policy)
        var now = 1000.0
        var waits: [Double] = []
        for _ in 0..<count {
            guard machine.nextAction(now: now) == .run([endpoint.name]),
                let due = machine.finished(endpoint.name, outcome: .failure(retryAfter: retryAfter), now: now)?.nextDue
            else { return waits }
            waits.append(due - now)
            now = due
        }
        return waits
    }

    @Test(
        "failures back off exponentially from a quarter interval, capped",
        arguments: [
            // 1 s: base clamped up to 1 s, cap 32 intervals.
            (1.0, [1.0, 2, 4, 8, 16, 32, 32, 32]),
            // 0.5 s: base at most the interval, cap 32 intervals.
            (0.5, [0.5, 1, 2, 4, 8, 16, 16]),
            // 10 s: base 2.5 s, cap 320 s.
            (10, [2.5, 5, 10, 20, 40, 80, 160, 320, 320]),
            // 5 min: base 75 s, cap 1 h (less than 32 intervals).
            (300, [75, 150, 300, 600, 1200, 2400, 3600, 3600]),
            // 1 h: base 15 min, cap the interval.
            (3600, [900, 1800, 3600, 3600]),
            // 1 day: the cap is never below the interval.
            (86_400, [21_600, 43_200, 86_400, 86_400]),
        ] as [(Double, [Double])]
    )
    func backoff(interval: Double, expected: [Double]) {
        let waits = Self.waitsAfterFailures(ScheduledEndpoint("a", every: interval), count: expected.count)
        #expect(waits == expected)
    }

    @Test("the consecutive failures are counted, returned to persist and visible in the state")
    func failuresCounted() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        var now = 1000.0
        for count in 1...5 {
            #expect(machine.nextAction(now: now) == .run(["a"]))
            let state = machine.finished("a", outcome: .failure(retryAfter: nil), now: now)
            #expect(state?.consecutiveFailures == count)
            #expect(machine.state(of: "a") == state)
            now = state?.nextDue ?? .infinity
        }
    }

    @Test("a success resets the failures and the wait to the interval")
    func successResets() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        var now = 1000.0
        for _ in 1...4 {
            _ = machine.nextAction(now: now)
            now = machine.finished("a", outcome: .failure(retryAfter: nil), now: now)?.nextDue ?? .infinity
        }
        #expect(machine.nextAction(now: now) == .run(["a"]))
        #expect(
            machine.finished("a", outcome: .success, now: now)
                == .init(nextDue: now + 60, consecutiveFailures: 0, reason: "interval"))
        #expect(machine.nextAction(now: now + 60) == .run(["a"]))
        #expect(machine.finished("a", outcome: .failure(retryAfter: nil), now: now + 60)?.nextDue == now + 60 + 15)
    }

    @Test(
        "a longer Retry-After wins, up to the policy's maximum; a shorter or invalid one changes nothing",
        arguments: [
            (nil, 15.0),  // the first backoff of a 60 s interval
            (600, 600),
            (15, 15),
            (3, 15),
            (0, 15),
            (-20, 15),
            (.nan, 15),
            (86_400, 86_400),
            (10_000_000, 86_400),
            (.infinity, 86_400),
        ] as [(Double?, Double)]
    )
    func retryAfter(retryAfter: Double?, expected: Double) {
        #expect(
            Self.waitsAfterFailures(ScheduledEndpoint("a", every: 60), count: 1, retryAfter: retryAfter) == [expected])
    }

    @Test("the Retry-After cap is configurable")
    func retryAfterCap() {
        let policy = SchedulePolicy(backoffJitter: 0, maximumRetryAfter: .seconds(120))
        let waits = Self.waitsAfterFailures(
            ScheduledEndpoint("a", every: 60), count: 1, policy: policy, retryAfter: 999)
        #expect(waits == [120])
    }

    @Test("a Retry-After counts as a failure, and the backoff keeps growing under it")
    func retryAfterCountsAsFailure() {
        let waits = Self.waitsAfterFailures(ScheduledEndpoint("a", every: 60), count: 5, retryAfter: 100)
        #expect(waits == [100, 100, 100, 120, 240])
    }

    @Test("backoff jitter stays within ±backoffJitter of the backoff over many draws", arguments: [1, 3, 6, 20])
    func backoffJitterBounds(failures: Int) throws {
        let endpoint = ScheduledEndpoint("a", every: 10, jitter: 0)
        let policy = SchedulePolicy()
        let backoff = policy.backoff(for: endpoint, failures: failures)
        var machine = ScheduleStateMachine.make(
            [endpoint],
            policy: policy,
            persisted: ["a": .init(consecutiveFailures: failures - 1)],
            now: 0,
            seed: UInt64(failures)
        )
        var waits: [Double] = []
        for _ in 0..<5000 {
            _ = machine.nextAction(now: 0)
            let state = machine.finished("a", outcome: .failure(retryAfter: nil), now: 0)
            waits.append(try #require(state?.nextDue))
            machine.reconfigure([], concurrency: 1, now: 0)  // forget it, and add it back with the same failures
            machine.reconfigure(
                [endpoint],
                concurrency: 1,
                persisted: ["a": .init(nextDue: 0, consecutiveFailures: failures - 1)],
                now: 0
            )
        }
        let low = backoff * 0.8
        let high = backoff * 1.2
        #expect(waits.allSatisfy { $0 >= low && $0 <= high })
        // Uniform: both ends are reached to within 1% of the range, and the mean is near the middle.
        #expect(try #require(waits.min()) < low + 0.01 * (high - low))
        #expect(try #require(waits.max()) > high - 0.01 * (high - low))
        let mean = waits.reduce(0, +) / Double(waits.count)
        #expect(abs(mean - backoff) < 0.02 * backoff)
    }
}
