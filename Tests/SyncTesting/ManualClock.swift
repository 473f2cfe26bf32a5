import Synchronization

/// A clock that moves only when the test says so; sleepers wake when it passes their deadline.
package final class ManualClock: Clock, Sendable {
    package struct Instant: InstantProtocol {
        package var offset: Duration

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Tests waiting, in ``firstSleeper()``, for someone to sleep.
        var watchers: [CheckedContinuation<Instant, Never>] = []
    }

    private let state = Mutex(State())
    /// Wall-clock seconds at the clock's zero, so that `wallNow` and `now` move together.
    package let epoch: Double

    package init(epoch: Double = 1_700_000_000) {
        self.epoch = epoch
    }

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// Seconds since 1970, as the engine and the scheduler read time.
    package var wallNow: Double {
        let (seconds, attoseconds) = now.offset.components
        return epoch + Double(seconds) + Double(attoseconds) / 1e18
    }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock that onCancel takes too: a cancellation either finds the sleeper
                // registered, or has already marked the task cancelled before it registers.
                let (verdict, watchers) = state.withLock {
                    state -> (Result<Bool, CancellationError>, [CheckedContinuation<Instant, Never>]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(true), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    defer { state.watchers = [] }
                    return (.success(false), state.watchers)
                }
                for watcher in watchers { watcher.resume(returning: deadline) }
                switch verdict {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The earliest deadline of those sleeping, once someone sleeps: how a test learns when a timer was set for,
    /// without guessing how long setting it takes.
    package func firstSleeper() async -> Instant {
        await withCheckedContinuation { continuation in
            let earliest = state.withLock { state -> Instant? in
                guard let earliest = state.sleepers.values.map(\.deadline).min() else {
                    state.watchers.append(continuation)
                    return nil
                }
                return earliest
            }
            if let earliest { continuation.resume(returning: earliest) }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    package func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
