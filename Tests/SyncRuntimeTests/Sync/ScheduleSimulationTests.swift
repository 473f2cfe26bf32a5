import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSupport

/// Many endpoints driven over simulated time, the way the daemon drives them: ask, start, finish, ask again.
@Suite("schedule: many endpoints over simulated time")
struct ScheduleSimulationTests {
    struct Trace: Equatable {
        var starts: [(time: Double, name: String)] = []
        var maxRunning = 0

        static func == (left: Trace, right: Trace) -> Bool {
            left.maxRunning == right.maxRunning
                && left.starts.elementsEqual(right.starts) { $0.time == $1.time && $0.name == $1.name }
        }
    }

    /// Runs `machine` from `start` to `end`: each run takes 0 to 0.2 s and fails one time in `failEvery`.
    static func simulate(
        _ machine: inout ScheduleStateMachine,
        from start: Double,
        to end: Double,
        failEvery: Int = 10,
        seed: UInt64 = 3
    ) -> Trace {
        var random = ScheduleRandom(seed: seed)
        var trace = Trace()
        var inFlight: [(end: Double, name: String)] = []
        var runningHere = Set<String>()
        var now = start
        while now < end {
            switch machine.nextAction(now: now) {
            case .run(let names):
                for name in names {
                    #expect(runningHere.insert(name).inserted, "\(name) started twice")
                    trace.starts.append((now, name))
                    inFlight.append((now + Double.random(in: 0...0.2, using: &random), name))
                }
                trace.maxRunning = max(trace.maxRunning, runningHere.count)
                #expect(machine.running == runningHere)
                continue
            case .sleep(until: let time):
                #expect(time > now)
                let firstEnd = inFlight.map(\.end).min() ?? .infinity
                now = min(time, firstEnd, end)
            case .waitForFinish:
                now = inFlight.map(\.end).min() ?? end
            case .idle:
                Issue.record("idle with endpoints configured")
                return trace
            }
            // End every run due to end by now, earliest first.
            inFlight.sort { $0.end < $1.end }
            while let first = inFlight.first, first.end <= now {
                inFlight.removeFirst()
                runningHere.remove(first.name)
                let fails = Int.random(in: 0..<failEvery, using: &random) == 0
                _ = machine.finished(first.name, outcome: fails ? .failure(retryAfter: nil) : .success, now: now)
            }
        }
        return trace
    }

    static let endpoints = (0..<1000).map { ScheduledEndpoint("e\($0)", every: 1, jitter: 0.1) }

    @Test("1,000 endpoints every second: concurrency holds, none runs twice, each runs about once a second")
    func thousandEndpoints() {
        var machine = ScheduleStateMachine.make(Self.endpoints, concurrency: 500, policy: SchedulePolicy(), now: 0)
        let trace = Self.simulate(&machine, from: 0, to: 60, failEvery: 1_000_000)
        #expect(trace.maxRunning <= 500)
        var counts: [String: Int] = [:]
        for start in trace.starts { counts[start.name, default: 0] += 1 }
        // A cycle takes 0.9–1.1 s of waiting plus 0–0.2 s of running, plus whatever the startup queue cost.
        #expect(counts.count == 1000)
        #expect(counts.values.allSatisfy { $0 >= 45 && $0 <= 68 })
    }

    @Test("with few slots, every endpoint still gets its turn, most overdue first")
    func starvedSlots() {
        var machine = ScheduleStateMachine.make(
            Array(Self.endpoints.prefix(100)),
            concurrency: 4,
            policy: SchedulePolicy(),
            now: 0
        )
        let trace = Self.simulate(&machine, from: 0, to: 120)
        #expect(trace.maxRunning == 4)
        var counts: [String: Int] = [:]
        for start in trace.starts { counts[start.name, default: 0] += 1 }
        #expect(counts.count == 100)
        let fewest = counts.values.min() ?? 0
        let most = counts.values.max() ?? 0
        #expect(fewest > 0 && most - fewest <= fewest)
    }

    @Test("a seeded run repeats exactly")
    func deterministic() {
        func trace(seed: UInt64) -> Trace {
            var machine = ScheduleStateMachine.make(
                Array(Self.endpoints.prefix(50)),
                concurrency: 8,
                policy: SchedulePolicy(),
                now: 0,
                seed: seed
            )
            return Self.simulate(&machine, from: 0, to: 30)
        }
        #expect(trace(seed: 11) == trace(seed: 11))
        #expect(trace(seed: 11) != trace(seed: 12))
    }

    @Test("a restart from the persisted states resumes the schedule instead of starting everything")
    func restart() throws {
        var machine = ScheduleStateMachine.make(Self.endpoints, concurrency: 1000, policy: SchedulePolicy(), now: 0)
        _ = Self.simulate(&machine, from: 0, to: 30, failEvery: 1_000_000)
        // What the daemon persisted before stopping at 30 (a run in flight persists its old time).
        var persisted: [String: ScheduleStateMachine.PersistedState] = [:]
        for endpoint in Self.endpoints {
            let state = try #require(machine.state(of: endpoint.name))
            persisted[endpoint.name] = state
        }
        var restarted = ScheduleStateMachine.make(Self.endpoints, concurrency: 1000, persisted: persisted, now: 30)
        let dueBefore = persisted.values.filter { ($0.nextDue ?? 0) <= 30 }.count
        guard case .run(let first) = restarted.nextAction(now: 30) else {
            Issue.record("something should be due at 30")
            return
        }
        #expect(first.count == dueBefore)
        #expect(first.count < 500)
        let later = persisted.values.compactMap(\.nextDue).filter { $0 > 30 }.min()
        #expect(restarted.nextAction(now: 30) == later.map { .sleep(until: $0) })
    }
}
