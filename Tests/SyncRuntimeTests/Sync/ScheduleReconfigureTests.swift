import SyncTesting
import Testing

@testable import SyncCore

@Suite("schedule: a new configuration (SIGHUP)")
struct ScheduleReconfigureTests {
    /// `a` and `b` every 60 s, both run once at 1000, so both are next due at 1060.
    static func settled() -> ScheduleStateMachine {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60)])
        _ = machine.nextAction(now: 1000)
        _ = machine.finished("a", outcome: .success, now: 1000)
        _ = machine.finished("b", outcome: .success, now: 1000)
        return machine
    }

    @Test("an added endpoint is due now")
    func added() {
        var machine = Self.settled()
        machine.reconfigure(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60), ScheduledEndpoint("c", every: 60)],
            concurrency: 4,
            now: 1010
        )
        #expect(machine.state(of: "c") == .init(nextDue: 1010, consecutiveFailures: 0))
        #expect(machine.nextAction(now: 1010) == .run(["c"]))
        #expect(machine.nextAction(now: 1010) == .sleep(until: 1060))
    }

    @Test("an added endpoint with a stored state starts from it")
    func addedWithStoredState() {
        var machine = Self.settled()
        machine.reconfigure(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("c", every: 60)],
            concurrency: 4,
            persisted: ["c": .init(nextDue: 1030, consecutiveFailures: 2), "a": .init(nextDue: 5000)],
            now: 1010
        )
        #expect(machine.state(of: "c") == .init(nextDue: 1030, consecutiveFailures: 2))
        // Known: memory wins.
        #expect(machine.state(of: "a") == .init(nextDue: 1060, consecutiveFailures: 0, reason: "interval"))
        #expect(machine.nextAction(now: 1010) == .sleep(until: 1030))
    }

    @Test("a removed endpoint is dropped")
    func removed() {
        var machine = Self.settled()
        machine.reconfigure([ScheduledEndpoint("b", every: 60)], concurrency: 4, now: 1010)
        #expect(machine.state(of: "a") == nil)
        #expect(machine.nextAction(now: 1060) == .run(["b"]))
        #expect(machine.nextAction(now: 2000) == .waitForFinish)
    }

    @Test("a removed endpoint that is running keeps its slot until it ends, and its end is ignored")
    func removedWhileRunning() {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60)],
            concurrency: 1
        )
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        machine.reconfigure([ScheduledEndpoint("b", every: 60)], concurrency: 1, now: 1001)
        #expect(machine.running == ["a"])
        #expect(machine.nextAction(now: 1001) == .waitForFinish)
        #expect(machine.finished("a", outcome: .success, now: 1002) == nil)
        #expect(machine.running.isEmpty)
        #expect(machine.state(of: "a") == nil)
        #expect(machine.nextAction(now: 1002) == .run(["b"]))
    }

    @Test("an endpoint removed while running and added back is not started twice, and its end counts")
    func removedAndAddedBackWhileRunning() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        machine.reconfigure([], concurrency: 4, now: 1001)
        #expect(machine.nextAction(now: 1001) == .idle)
        machine.reconfigure([ScheduledEndpoint("a", every: 30)], concurrency: 4, now: 1002)
        #expect(machine.nextAction(now: 1002) == .waitForFinish)
        #expect(
            machine.finished("a", outcome: .success, now: 1003)
                == .init(nextDue: 1033, consecutiveFailures: 0, reason: "interval"))
        #expect(machine.nextAction(now: 1003) == .sleep(until: 1033))
    }

    @Test("an unchanged endpoint keeps its schedule and its failures")
    func unchanged() {
        var machine = Self.settled()
        _ = machine.nextAction(now: 1060)
        _ = machine.finished("a", outcome: .failure(retryAfter: nil), now: 1060)
        let before = (machine.state(of: "a"), machine.state(of: "b"))
        machine.reconfigure(
            [ScheduledEndpoint("b", every: 60), ScheduledEndpoint("a", every: 60)],
            concurrency: 4,
            now: 1061
        )
        #expect(machine.state(of: "a") == before.0)
        #expect(machine.state(of: "b") == before.1)
        #expect(machine.state(of: "a")?.consecutiveFailures == 1)
    }

    @Test("a longer interval applies from the next due time on")
    func longerInterval() {
        var machine = Self.settled()
        machine.reconfigure([ScheduledEndpoint("a", every: 600)], concurrency: 4, now: 1010)
        #expect(machine.state(of: "a")?.nextDue == 1060)
        #expect(machine.nextAction(now: 1060) == .run(["a"]))
        #expect(machine.finished("a", outcome: .success, now: 1060)?.nextDue == 1660)
    }

    @Test(
        "a shorter interval brings a next due later than now + the new interval forward to it",
        arguments: [
            // (new interval, expected next due, reconfigured at 1010 with the next due at 1060)
            (10.0, 1020.0),  // 1060 is later than 1020: brought forward
            (50, 1060),  // 1060 is exactly 1010 + 50: kept
            (55, 1060),  // 1060 is within 1010 + 55: kept
        ]
    )
    func shorterInterval(interval: Double, expected: Double) {
        var machine = Self.settled()
        machine.reconfigure([ScheduledEndpoint("a", every: interval)], concurrency: 4, now: 1010)
        #expect(machine.state(of: "a")?.nextDue == expected)
        #expect(machine.nextAction(now: 1010) == .sleep(until: expected))
    }

    @Test("brought forward with jitter, within one new jittered interval and never later than before")
    func shorterIntervalWithJitter() throws {
        for seed in 0..<200 as Range<UInt64> {
            var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)], seed: seed)
            _ = machine.nextAction(now: 1000)
            _ = machine.finished("a", outcome: .success, now: 1000)
            machine.reconfigure([ScheduledEndpoint("a", every: 10, jitter: 0.5)], concurrency: 4, now: 1010)
            let due = try #require(machine.state(of: "a")?.nextDue)
            #expect(due >= 1015 && due <= 1025)
        }
    }

    @Test("a failing endpoint is not brought forward: its backoff or Retry-After stands")
    func failingNotBroughtForward() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        _ = machine.nextAction(now: 1000)
        _ = machine.finished("a", outcome: .failure(retryAfter: 3600), now: 1000)
        machine.reconfigure([ScheduledEndpoint("a", every: 10)], concurrency: 4, now: 1010)
        #expect(machine.state(of: "a") == .init(nextDue: 4600, consecutiveFailures: 1, reason: "Retry-After"))
    }

    @Test("a running endpoint whose interval changed uses the new one when it ends")
    func runningChanged() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        _ = machine.nextAction(now: 1000)
        machine.reconfigure([ScheduledEndpoint("a", every: 5)], concurrency: 4, now: 1001)
        #expect(machine.running == ["a"])
        #expect(machine.nextAction(now: 1001) == .waitForFinish)
        #expect(machine.finished("a", outcome: .success, now: 1002)?.nextDue == 1007)
    }

    @Test("a new concurrency applies at once, and runs above a lower one finish")
    func concurrencyChanges() {
        let endpoints = (0..<6).map { ScheduledEndpoint("e\($0)", every: 60) }
        var machine = ScheduleStateMachine.make(endpoints, concurrency: 2)
        #expect(machine.nextAction(now: 1000) == .run(["e0", "e1"]))
        machine.reconfigure(endpoints, concurrency: 4, now: 1000)
        #expect(machine.nextAction(now: 1000) == .run(["e2", "e3"]))
        machine.reconfigure(endpoints, concurrency: 1, now: 1000)
        #expect(machine.concurrency == 1)
        _ = machine.finished("e0", outcome: .success, now: 1001)
        _ = machine.finished("e1", outcome: .success, now: 1001)
        _ = machine.finished("e2", outcome: .success, now: 1001)
        #expect(machine.nextAction(now: 1001) == .waitForFinish)
        _ = machine.finished("e3", outcome: .success, now: 1001)
        #expect(machine.nextAction(now: 1001) == .run(["e4"]))
    }

    @Test("removing every endpoint makes the machine idle")
    func removeAll() {
        var machine = Self.settled()
        machine.reconfigure([], concurrency: 4, now: 1010)
        #expect(machine.nextAction(now: 5000) == .idle)
    }
}
