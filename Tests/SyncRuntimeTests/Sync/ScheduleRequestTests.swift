import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncRuntime

/// Runs asked for out of schedule (a webhook's, ``ScheduleStateMachine/request(_:now:)``): a burst is one run, a run
/// under way is followed by exactly one more, and a backoff stands. Time is passed in: nothing sleeps.
@Suite("schedule: runs a webhook asks for")
struct ScheduleRequestTests {
    @Test("a waiting endpoint asked for is due at once, and a burst of requests before it starts is one run")
    func burstIsOneRun() {
        var machine = ScheduleStateMachine.make([
            ScheduledEndpoint("a", every: 3600), ScheduledEndpoint("b", every: 60),
        ])
        #expect(machine.nextAction(now: 1000) == .run(["a", "b"]))
        _ = machine.finished("a", outcome: .success, now: 1001)
        _ = machine.finished("b", outcome: .success, now: 1001)
        #expect(machine.nextAction(now: 1002) == .sleep(until: 1061))
        let taken = (0..<10_000).count { _ in machine.request("a", now: 1002) }
        #expect(taken == 10_000)
        #expect(machine.state(of: "a")?.reason == "webhook")
        #expect(machine.nextAction(now: 1002) == .run(["a"]))
        // Nothing else is due: the requests left no second run behind them.
        #expect(machine.nextAction(now: 1002) == .sleep(until: 1061))
        _ = machine.finished("a", outcome: .success, now: 1003)
        #expect(machine.state(of: "a")?.nextDue == 4603)
        #expect(machine.nextAction(now: 1003) == .sleep(until: 1061))
    }

    @Test("requests while a run is under way are exactly one more run, at its end")
    func runningIsFollowedByOne() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 3600)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let taken = (0..<10_000).count { _ in machine.request("a", now: 1000.5) }
        #expect(taken == 10_000)
        #expect(machine.nextAction(now: 1000.5) == .waitForFinish)
        let state = machine.finished("a", outcome: .success, now: 1001)
        #expect(state?.nextDue == 1001)
        #expect(state?.reason == "webhook")
        #expect(machine.nextAction(now: 1001) == .run(["a"]))
        _ = machine.finished("a", outcome: .success, now: 1002)
        #expect(machine.state(of: "a")?.nextDue == 4602)
        #expect(machine.nextAction(now: 1002) == .sleep(until: 4602))
    }

    @Test("a run that fails keeps its backoff though more was asked for, and a request during a backoff is declined")
    func backoffStands() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let asked = machine.request("a", now: 1000)
        #expect(asked)
        let failed = machine.finished("a", outcome: .failure(retryAfter: nil), now: 1001)
        let due = failed?.nextDue ?? 0
        #expect(due > 1001)
        let declined = !machine.request("a", now: 1002)
        #expect(declined)
        #expect(machine.nextAction(now: 1002) == .sleep(until: due))
    }

    @Test("an endpoint not configured is declined, and an endpoint due already stays as it is")
    func unknownAndDue() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60)], concurrency: 1)
        let unknown = !machine.request("nope", now: 1000)
        #expect(unknown)
        let asked = machine.request("a", now: 1000)
        #expect(asked)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
    }

    @Test("the items requests leave in the queue are passed over, whatever order the endpoints come due in")
    func staleItemsPassedOver() {
        var machine = ScheduleStateMachine.make(
            (0..<5).map { ScheduledEndpoint("e\($0)", every: Double(100 * ($0 + 1))) }, concurrency: 1)
        var now = 1000.0
        for name in (0..<5).map({ "e\($0)" }) {
            #expect(machine.nextAction(now: now) == .run([name]))
            _ = machine.finished(name, outcome: .success, now: now)
        }
        // e4 due at 1500, e3 at 1400…: ask for e4 and e2, twice each.
        for name in ["e4", "e2", "e4", "e2"] { machine.request(name, now: 1010) }
        now = 1010
        var started: [String] = []
        while case .run(let names) = machine.nextAction(now: now) {
            started += names
            for name in names { _ = machine.finished(name, outcome: .success, now: now) }
        }
        #expect(started == ["e2", "e4"])
        // The old items of e2 and e4 (at 1300 and 1500) come first before their new ones (1310, 1510), and start
        // nothing twice: each endpoint runs once.
        now = 1600
        started = []
        while case .run(let names) = machine.nextAction(now: now) {
            started += names
            for name in names { _ = machine.finished(name, outcome: .success, now: now + 10_000) }
        }
        #expect(started.sorted() == ["e0", "e1", "e2", "e3", "e4"])
    }

    @Test("hooks naming parents make one run for their union, and the full walk keeps its due time after it")
    func parentsUnion() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("issues", every: 3600)])
        #expect(machine.nextAction(now: 1000) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == nil)
        _ = machine.finished("issues", outcome: .success, now: 1001)
        for parent in ["\"a\"", "\"b\"", "\"a\""] { machine.request("issues", now: 1002, parent: parent) }
        #expect(machine.nextAction(now: 1002) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == ["\"a\"", "\"b\""])
        let state = machine.finished("issues", outcome: .success, now: 1003)
        #expect(state?.nextDue == 4601, "the full walk is where it was")
        #expect(state?.reason == "interval")
        #expect(machine.parents(of: "issues") == nil)
        #expect(machine.nextAction(now: 1003) == .sleep(until: 4601))
    }

    @Test("a hook without a parent makes the pending run a full walk; during a run, it makes the next one full")
    func wholeWins() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("issues", every: 3600)])
        #expect(machine.nextAction(now: 1000) == .run(["issues"]))
        _ = machine.finished("issues", outcome: .success, now: 1001)
        machine.request("issues", now: 1002, parent: "1")
        machine.request("issues", now: 1002)
        #expect(machine.nextAction(now: 1002) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == nil)
        // Running: parents named meanwhile are the next run's, unless a hook without one comes.
        machine.request("issues", now: 1002.5, parent: "2")
        machine.request("issues", now: 1002.5, parent: "3")
        let first = machine.finished("issues", outcome: .success, now: 1003)
        #expect(first?.nextDue == 1003)
        #expect(machine.nextAction(now: 1003) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == ["2", "3"])
        machine.request("issues", now: 1003.5, parent: "4")
        machine.request("issues", now: 1003.5)
        let second = machine.finished("issues", outcome: .success, now: 1004)
        #expect(second?.nextDue == 1004, "the one more run, at once")
        #expect(machine.nextAction(now: 1004) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == nil, "a full walk")
        _ = machine.finished("issues", outcome: .success, now: 1005)
        #expect(machine.state(of: "issues")?.nextDue == 4605)
    }

    @Test("a parent named while a full walk is due already adds nothing: the full walk walks it")
    func dueFullWalk() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("issues", every: 3600)], concurrency: 1)
        machine.request("issues", now: 1000, parent: "1")
        #expect(machine.nextAction(now: 1000) == .run(["issues"]))
        #expect(machine.parents(of: "issues") == nil)
    }
}
