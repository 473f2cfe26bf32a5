import SyncTesting
import Testing

@testable import SyncCore

/// The machine's side of claims shared with other nodes (``EndpointLeasing``): a start another node's claim
/// prevented is taken back without counting a failure, and failures stored by another node are adopted.
@Suite("schedule: starts taken back when another node holds the endpoint")
struct ScheduleLeaseTests {
    @Test("a postponed start frees its slot, is due again at the time given, and counts no failure")
    func postpone() {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60)], concurrency: 1)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let postponed = machine.postpone("a", until: 1030)
        #expect(postponed)
        #expect(machine.running.isEmpty)
        #expect(machine.state(of: "a") == .init(nextDue: 1030, consecutiveFailures: 0))
        #expect(machine.nextAction(now: 1000) == .run(["b"]))
        let finished = machine.finished("b", outcome: .success, now: 1001)
        #expect(finished != nil)
        #expect(machine.nextAction(now: 1001) == .sleep(until: 1030))
        #expect(machine.nextAction(now: 1030) == .run(["a"]))
    }

    @Test("postponing what is not running changes nothing; a time that is no time keeps the old one")
    func postponeGuards() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        let notRunning = machine.postpone("a", until: 2000)
        let unknown = machine.postpone("zz", until: 2000)
        #expect(!notRunning && !unknown)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let nan = machine.postpone("a", until: .nan)
        #expect(nan)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
    }

    @Test("failures another node stored are adopted, so the backoff goes on from them")
    func adoptFailures() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        machine.adoptFailures("a", 3)
        let adopted = machine.finished("a", outcome: .failure(retryAfter: nil), now: 1000)
        var fresh = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        _ = fresh.nextAction(now: 1000)
        let first = fresh.finished("a", outcome: .failure(retryAfter: nil), now: 1000)
        #expect(adopted?.consecutiveFailures == 4)
        #expect((adopted?.nextDue ?? 0) > (first?.nextDue ?? .infinity))
        #expect(machine.interval(of: "a") == 60)
        #expect(machine.interval(of: "zz") == nil)
    }
}
