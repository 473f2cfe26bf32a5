import Synchronization
import Testing

@testable import SyncCore

/// The one watcher of commits every change stream, event stream and long poll waits on.
@Suite("library: CommitNotifier, one watcher of commits for every waiter")
struct CommitNotifierTests {
    /// A storage's commit counter a test moves, counting how often it is read.
    final class Counter: Sendable {
        let state = Mutex((generation: Int64(1), reads: 0))

        func read() -> Int64 {
            state.withLock { state in
                state.reads += 1
                return state.generation
            }
        }

        func commit() {
            state.withLock { $0.generation += 1 }
        }

        var reads: Int { state.withLock { $0.reads } }
    }

    @Test("a commit this process says wakes every waiter at once, with one look for all of them")
    func wakesEveryWaiter() async throws {
        let counter = Counter()
        let notifier = CommitNotifier(generation: { counter.read() })
        let seen = notifier.current()
        // Looking every hour: only changed() can end these waits.
        try await withThrowingTaskGroup(of: Int64?.self) { group in
            for _ in 0..<100 {
                group.addTask { await notifier.next(after: seen, lookingEvery: .seconds(3600)) }
            }
            // Every waiter registered and the watcher napping, then the commit.
            while counter.reads < 101 { await Task.yield() }
            let readsBefore = counter.reads
            counter.commit()
            notifier.changed()
            var woken: [Int64?] = []
            for try await generation in group { woken.append(generation) }
            #expect(woken == Array(repeating: 2, count: 100))
            #expect(counter.reads - readsBefore <= 2, "one look tells them all")
        }
    }

    @Test("a wait ends with nil when its time is up or its task is cancelled; a commit before it is news at once")
    func endsWithoutCommit() async {
        let counter = Counter()
        let notifier = CommitNotifier(generation: { counter.read() })
        let seen = notifier.current()
        #expect(await notifier.next(after: seen, lookingEvery: .seconds(3600), within: .milliseconds(20)) == nil)
        let waiting = Task { await notifier.next(after: seen, lookingEvery: .seconds(3600)) }
        waiting.cancel()
        #expect(await waiting.value == nil)
        counter.commit()
        // Committed between the caller's read and its wait: not missed.
        #expect(await notifier.next(after: seen, lookingEvery: .seconds(3600)) == 2)
    }

    @Test("a commit by another process is seen at the next look")
    func looks() async {
        let counter = Counter()
        let notifier = CommitNotifier(generation: { counter.read() })
        let seen = notifier.current()
        let waiting = Task { await notifier.next(after: seen, lookingEvery: .milliseconds(5)) }
        while counter.reads < 3 { await Task.yield() }
        counter.commit()
        #expect(await waiting.value == 2)
    }
}
