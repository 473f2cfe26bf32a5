import Testing

@testable import SyncCore
@testable import SyncRuntime

@Suite("schedule: the policy's waits and their jitter")
struct SchedulePolicyTests {
    @Test("the defaults are those documented")
    func defaults() {
        let policy = SchedulePolicy()
        #expect(policy.backoffBaseFraction == 0.25)
        #expect(policy.minimumBackoff == .seconds(1))
        #expect(policy.backoffCapIntervals == 32)
        #expect(policy.maximumBackoff == .seconds(3600))
        #expect(policy.backoffJitter == 0.2)
        #expect(policy.maximumRetryAfter == .seconds(86_400))
        #expect(policy.minimumDelay == .milliseconds(100))
    }

    @Test(
        "a success waits interval × (1 ± jitter); the jitter is clamped into 0...1",
        arguments: [
            // (jitter, unit, expected wait of a 100 s interval)
            (0.1, -1.0, 90.0), (0.1, 0, 100), (0.1, 1, 110), (0.1, 0.5, 105),
            (0, -1, 100), (0, 1, 100),
            (1, 1, 200), (1, -0.5, 50), (1, -1, 0.1),  // never below the minimum delay
            (2, 1, 200), (-1, 1, 100), (.nan, 1, 100), (.infinity, 1, 200),
        ]
    )
    func successDelay(jitter: Double, unit: Double, expected: Double) {
        let endpoint = ScheduledEndpoint(name: "a", interval: .seconds(100), jitter: jitter)
        #expect(abs(SchedulePolicy().successDelay(for: endpoint, unit: unit) - expected) < 1e-9)
    }

    @Test(
        "a failure's backoff is jittered by ±backoffJitter around min(cap, base × 2^(n-1))",
        arguments: [(-1.0, 12.0), (0, 15), (1, 18)]
    )
    func failureDelayJitter(unit: Double, expected: Double) {
        let endpoint = ScheduledEndpoint("a", every: 60)
        #expect(SchedulePolicy().failureDelay(for: endpoint, failures: 1, retryAfter: nil, unit: unit) == expected)
    }

    @Test("backoff settings out of range are clamped, never trapping")
    func outOfRangePolicy() {
        let policy = SchedulePolicy(
            backoffBaseFraction: .nan,
            minimumBackoff: .seconds(-5),
            backoffCapIntervals: .infinity,
            maximumBackoff: .seconds(-1),
            backoffJitter: 7,
            maximumRetryAfter: .seconds(-1),
            minimumDelay: .seconds(-1)
        )
        let endpoint = ScheduledEndpoint("a", every: 60)
        #expect(policy.backoff(for: endpoint, failures: 3) == 0)
        #expect(policy.backoffCap(for: endpoint) == 60)
        #expect(policy.failureDelay(for: endpoint, failures: 1, retryAfter: 50, unit: 1) == 0)
        let zero = ScheduledEndpoint("z", every: 0)
        #expect(policy.backoffCap(for: zero) == 0)
    }

    @Test("the failure count can grow without bound", arguments: [1000, 1023, 1024, 100_000, Int.max])
    func manyFailures(failures: Int) {
        let endpoint = ScheduledEndpoint("a", every: 300)
        #expect(SchedulePolicy().backoff(for: endpoint, failures: failures) == 3600)
    }

    @Test("a count of zero failures counts as the first")
    func zeroFailures() {
        let endpoint = ScheduledEndpoint("a", every: 300)
        #expect(SchedulePolicy().backoff(for: endpoint, failures: 0) == 75)
    }

    @Test("the longest wait covers the longest success, backoff and Retry-After")
    func longestWait() {
        let policy = SchedulePolicy()
        #expect(policy.longestWait(for: ScheduledEndpoint("a", every: 1)) == 86_400)
        #expect(policy.longestWait(for: ScheduledEndpoint("a", every: 86_400, jitter: 0.5)) == 129_600)
        // The capped backoff (240,000) is shorter than the wait after a backlog's run: one and a half intervals.
        #expect(policy.longestWait(for: ScheduledEndpoint("a", every: 200_000)) == 300_000)
    }

    @Test("success waits stay within interval × (1 ± jitter) over many draws", arguments: [0.05, 0.1, 0.5, 1])
    func successJitterBounds(jitter: Double) throws {
        let interval = 10.0
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: interval, jitter: jitter)], now: 0, seed: 99)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<10_000 {
            #expect(machine.nextAction(now: now) == .run(["a"]))
            let state = machine.finished("a", outcome: .success, now: now)
            let due = try #require(state?.nextDue)
            waits.append(due - now)
            now = due
        }
        let low = max(0.1, interval * (1 - jitter))
        let high = interval * (1 + jitter)
        let slack = 1e-9 * high  // `now` accumulates rounding over 10,000 additions
        #expect(waits.allSatisfy { $0 >= low - slack && $0 <= high + slack })
        #expect(try #require(waits.min()) < low + 0.01 * (high - low))
        #expect(try #require(waits.max()) > high - 0.01 * (high - low))
        let mean = waits.reduce(0, +) / Double(waits.count)
        #expect(abs(mean - interval) < 0.02 * interval)
        // Roughly uniform: each tenth of the range holds about a tenth of the draws.
        var buckets = [Int](repeating: 0, count: 10)
        for wait in waits where wait > low {
            buckets[min(9, Int((wait - interval * (1 - jitter)) / (2 * jitter * interval) * 10))] += 1
        }
        if jitter < 1 {
            #expect(buckets.allSatisfy { $0 > 800 && $0 < 1200 })
        }
    }
}
