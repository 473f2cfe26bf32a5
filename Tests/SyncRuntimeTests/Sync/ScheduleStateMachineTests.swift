import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSupport

extension ScheduledEndpoint {
    /// An endpoint polled every `seconds`, with no jitter unless asked.
    init(_ name: String, every seconds: Double, jitter: Double = 0) {
        self.init(name: name, interval: .milliseconds(Int64((seconds * 1000).rounded())), jitter: jitter)
    }
}

extension SchedulePolicy {
    /// The default policy without backoff jitter, so that waits are exact.
    static let exact = SchedulePolicy(backoffJitter: 0)
}

extension ScheduleStateMachine {
    /// A machine with a fixed seed and no jitter unless asked, for tests.
    static func make(
        _ endpoints: [ScheduledEndpoint],
        concurrency: Int = 4,
        policy: SchedulePolicy = .exact,
        persisted: [String: PersistedState] = [:],
        now: Double = 1000,
        seed: UInt64 = 1
    ) -> ScheduleStateMachine {
        ScheduleStateMachine(
            endpoints: endpoints,
            concurrency: concurrency,
            policy: policy,
            persisted: persisted,
            now: now,
            random: ScheduleRandom(seed: seed)
        )
    }
}

@Suite("schedule: starting, running and waiting")
struct ScheduleStateMachineTests {
    @Test("a stored next due in the future is waited for, so a restart resumes the schedule")
    func restartResumes() {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60)],
            persisted: ["a": .init(nextDue: 1030, consecutiveFailures: 0)],
            now: 1000
        )
        #expect(machine.nextAction(now: 1000) == .sleep(until: 1030))
        #expect(machine.nextAction(now: 1029.9) == .sleep(until: 1030))
        #expect(machine.nextAction(now: 1030) == .run(["a"]))
    }

    @Test(
        "an endpoint with no stored time, or one in the past or unbelievable, is due now",
        arguments: [nil, 0, 999, 1000, .infinity, -.infinity, .nan, 1000 + 10 * 365 * 86_400] as [Double?]
    )
    func dueNow(stored: Double?) {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60)],
            persisted: ["a": .init(nextDue: stored, consecutiveFailures: 0)],
            now: 1000
        )
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        #expect(machine.state(of: "a")?.nextDue ?? 0 <= 1000)
    }

    @Test("a stored time within the longest wait the policy gives is believed, even a day for a Retry-After")
    func longStoredTime() {
        let tomorrow = 1000 + 86_000.0
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 1)],
            persisted: ["a": .init(nextDue: tomorrow, consecutiveFailures: 3)],
            now: 1000
        )
        #expect(machine.nextAction(now: 1000) == .sleep(until: tomorrow))
        #expect(machine.state(of: "a") == .init(nextDue: tomorrow, consecutiveFailures: 3))
    }

    @Test("stored failures carry over, and a negative count counts as none")
    func storedFailures() {
        let machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60)],
            persisted: ["a": .init(nextDue: nil, consecutiveFailures: 4), "b": .init(consecutiveFailures: -3)]
        )
        #expect(machine.state(of: "a")?.consecutiveFailures == 4)
        #expect(machine.state(of: "b")?.consecutiveFailures == 0)
    }

    @Test("due endpoints start most overdue first, ties by name")
    func order() {
        var machine = ScheduleStateMachine.make(
            ["d", "c", "b", "a", "e"].map { ScheduledEndpoint($0, every: 60) },
            concurrency: 10,
            persisted: ["a": .init(nextDue: 995), "b": .init(nextDue: 950), "e": .init(nextDue: 1010)],
            now: 1000
        )
        #expect(machine.nextAction(now: 1000) == .run(["b", "a", "c", "d"]))
        #expect(machine.nextAction(now: 1000) == .sleep(until: 1010))
    }

    @Test("many endpoints due at startup start at most `concurrency` at a time", arguments: [1, 3, 7, 50])
    func startupIsThrottled(concurrency: Int) throws {
        let names = (0..<20).map { "e\($0 < 10 ? "0" : "")\($0)" }
        var machine = ScheduleStateMachine.make(
            names.map { ScheduledEndpoint($0, every: 60) },
            concurrency: concurrency
        )
        var started: [String] = []
        var now = 1000.0
        while started.count < names.count {
            guard case .run(let batch) = machine.nextAction(now: now) else {
                Issue.record("expected runs, \(started.count) started")
                return
            }
            #expect(batch.count == min(concurrency, names.count - started.count))
            #expect(machine.running.count <= concurrency)
            if started.count + batch.count < names.count {
                #expect(machine.nextAction(now: now) == .waitForFinish)
            }
            started += batch
            now += 1
            for name in batch {
                _ = machine.finished(name, outcome: .success, now: now)
            }
        }
        #expect(started == names)
    }

    @Test("runs started late while others waited for a slot spread over 0.5 to 1.5 intervals; the rest keep ± jitter")
    func backlogSpreads() {
        let names = (0..<100).map { "e\($0)" }
        var machine = ScheduleStateMachine.make(
            names.map { ScheduledEndpoint($0, every: 60, jitter: 0.01) }, concurrency: 10, policy: SchedulePolicy())
        var now = 1000.0
        var waits: [(inBacklog: Bool, wait: Double)] = []
        var batches = 0
        while batches < 10, case .run(let batch) = machine.nextAction(now: now) {
            // Each batch takes 1.5 s: from the second on, runs start more than a second late (the tolerance of an
            // interval of 60 s with 1% jitter), and until the last, due endpoints still wait for a slot.
            let inBacklog = batches > 0 && waits.count + batch.count < names.count
            batches += 1
            now += 1.5
            for name in batch {
                let state = machine.finished(name, outcome: .success, now: now)
                waits.append((inBacklog, (state?.nextDue ?? 0) - now))
            }
        }
        #expect(waits.count == 100)
        let spread = waits.filter(\.inBacklog).map(\.wait)
        let onTime = waits.filter { !$0.inBacklog }.map(\.wait)
        #expect(spread.count == 80 && onTime.count == 20, "the first batch was on time, the last had none waiting")
        #expect(spread.allSatisfy { (30...90).contains($0) })
        #expect((spread.max() ?? 0) - (spread.min() ?? 0) > 30, "spread over most of an interval's width: \(spread)")
        #expect(onTime.allSatisfy { (59.4...60.6).contains($0) }, "\(onTime)")
    }

    @Test("a success schedules the next run an interval after its end and resets the failures")
    func success() throws {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60)],
            persisted: ["a": .init(nextDue: 1000, consecutiveFailures: 2)]
        )
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        let state = machine.finished("a", outcome: .success, now: 1007)
        #expect(state == .init(nextDue: 1067, consecutiveFailures: 0, reason: "interval"))
        #expect(machine.state(of: "a") == state)
        #expect(machine.nextAction(now: 1007) == .sleep(until: 1067))
        #expect(machine.nextAction(now: 1067) == .run(["a"]))
    }

    @Test("a running endpoint is never started again, however overdue")
    func neverTwice() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 1), ScheduledEndpoint("b", every: 5)])
        #expect(machine.nextAction(now: 1000) == .run(["a", "b"]))
        _ = machine.finished("b", outcome: .success, now: 1000)
        for now in stride(from: 1000.0, through: 1004, by: 0.5) {
            #expect(machine.nextAction(now: now) == .sleep(until: 1005))
        }
        #expect(machine.nextAction(now: 2000) == .run(["b"]))
        #expect(machine.nextAction(now: 3000) == .waitForFinish)
        #expect(machine.running == ["a", "b"])
    }

    @Test("a run whose answer is in frees its slot for another fetch; at most `concurrency` more wait to be stored")
    func fetchedRunsFreeTheirSlots() {
        let names = (0..<6).map { "e\($0)" }
        var machine = ScheduleStateMachine.make(names.map { ScheduledEndpoint($0, every: 60) }, concurrency: 2)
        #expect(machine.nextAction(now: 1000) == .run(["e0", "e1"]))
        #expect(machine.nextAction(now: 1000) == .waitForFinish)
        machine.fetched("e0")
        #expect(machine.nextAction(now: 1000) == .run(["e2"]))
        #expect(machine.nextAction(now: 1000) == .waitForFinish)
        machine.fetched("e1")
        machine.fetched("e2")
        // Three wait to be stored and one fetches: four running, twice `concurrency`, is the most.
        #expect(machine.nextAction(now: 1000) == .run(["e3"]))
        #expect(machine.nextAction(now: 1000) == .waitForFinish)
        #expect(machine.running == ["e0", "e1", "e2", "e3"])
        #expect(machine.storing == ["e0", "e1", "e2"])
        // An endpoint not running is not counted; one being stored is never started again, however overdue.
        machine.fetched("e5")
        #expect(machine.storing == ["e0", "e1", "e2"])
        #expect(machine.nextAction(now: 5000) == .waitForFinish)
        _ = machine.finished("e0", outcome: .success, now: 1001)
        #expect(machine.storing == ["e1", "e2"])
        #expect(machine.nextAction(now: 1001) == .run(["e4"]))
        // Two fetching: the slots are full again, whatever is stored.
        _ = machine.finished("e1", outcome: .success, now: 1002)
        #expect(machine.nextAction(now: 1002) == .waitForFinish)
        _ = machine.finished("e3", outcome: .failure(retryAfter: nil), now: 1003)
        #expect(machine.storing == ["e2"])
        #expect(machine.nextAction(now: 1003) == .run(["e5"]))
    }

    @Test("sleep is until the earliest next due among the endpoints not running")
    func sleepUntilEarliestNotRunning() {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60), ScheduledEndpoint("b", every: 60), ScheduledEndpoint("c", every: 60)],
            persisted: ["a": .init(nextDue: 1000), "b": .init(nextDue: 1010), "c": .init(nextDue: 1005)]
        )
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        #expect(machine.nextAction(now: 1000) == .sleep(until: 1005))
        #expect(machine.nextAction(now: 1005) == .run(["c"]))
        #expect(machine.nextAction(now: 1005) == .sleep(until: 1010))
    }

    @Test("when every slot is taken, only the end of a run helps, whatever is due")
    func slotsTaken() {
        var machine = ScheduleStateMachine.make(
            ["a", "b", "c"].map { ScheduledEndpoint($0, every: 60) },
            concurrency: 2,
            persisted: ["c": .init(nextDue: 1050)]
        )
        #expect(machine.nextAction(now: 1000) == .run(["a", "b"]))
        #expect(machine.nextAction(now: 1000) == .waitForFinish)
        #expect(machine.nextAction(now: 1100) == .waitForFinish)
        _ = machine.finished("a", outcome: .success, now: 1100)
        #expect(machine.nextAction(now: 1100) == .run(["c"]))
    }

    @Test("when every endpoint is running, only the end of a run helps")
    func allRunning() {
        var machine = ScheduleStateMachine.make(["a", "b"].map { ScheduledEndpoint($0, every: 60) }, concurrency: 8)
        #expect(machine.nextAction(now: 1000) == .run(["a", "b"]))
        #expect(machine.nextAction(now: 5000) == .waitForFinish)
    }

    @Test("with no endpoint configured the machine is idle")
    func idle() {
        var machine = ScheduleStateMachine.make([])
        #expect(machine.nextAction(now: 1000) == .idle)
        #expect(machine.running.isEmpty)
        #expect(machine.state(of: "a") == nil)
    }

    @Test("the end of a run that is not running is ignored", arguments: ["a", "nonexistent"])
    func finishWithoutRun(name: String) {
        var machine = ScheduleStateMachine.make(
            [ScheduledEndpoint("a", every: 60)], persisted: ["a": .init(nextDue: 1500)])
        #expect(machine.finished(name, outcome: .success, now: 1000) == nil)
        #expect(machine.state(of: "a") == .init(nextDue: 1500, consecutiveFailures: 0))
        #expect(machine.nextAction(now: 1000) == .sleep(until: 1500))
    }

    @Test("a concurrency below 1 counts as 1", arguments: [0, -5, Int.min])
    func concurrencyAtLeastOne(concurrency: Int) {
        var machine = ScheduleStateMachine.make(
            ["a", "b"].map { ScheduledEndpoint($0, every: 60) }, concurrency: concurrency)
        #expect(machine.concurrency == 1)
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        #expect(machine.nextAction(now: 1000) == .waitForFinish)
    }

    @Test("of two endpoints with one name, the first counts")
    func duplicateNames() {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: 60), ScheduledEndpoint("a", every: 5)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        #expect(machine.finished("a", outcome: .success, now: 1000)?.nextDue == 1060)
    }

    @Test("a zero or negative interval still waits the policy's minimum delay", arguments: [0.0, -5])
    func zeroInterval(seconds: Double) {
        var machine = ScheduleStateMachine.make([ScheduledEndpoint("a", every: seconds, jitter: 1)])
        #expect(machine.nextAction(now: 1000) == .run(["a"]))
        #expect(machine.finished("a", outcome: .success, now: 1000)?.nextDue == 1000.1)
    }

    @Test("equal seeds give equal schedules, different seeds different ones")
    func deterministic() {
        func schedule(seed: UInt64) -> [Double] {
            var machine = ScheduleStateMachine.make(
                [ScheduledEndpoint("a", every: 10, jitter: 0.5)],
                policy: SchedulePolicy(),
                seed: seed
            )
            var now = 1000.0
            var dues: [Double] = []
            for run in 0..<50 {
                guard case .run = machine.nextAction(now: now) else { return dues }
                let outcome: ScheduleStateMachine.Outcome = run % 3 == 0 ? .failure(retryAfter: nil) : .success
                now = machine.finished("a", outcome: outcome, now: now)?.nextDue ?? now
                dues.append(now)
            }
            return dues
        }
        #expect(schedule(seed: 42) == schedule(seed: 42))
        #expect(schedule(seed: 42) != schedule(seed: 43))
        #expect(schedule(seed: 42).count == 50)
    }
}
