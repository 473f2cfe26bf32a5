internal import Synchronization

/// Says when the cache's storage has a new commit, to everything that waits for one: the change streams
/// (``SyncCache/changeSets(_:since:every:)``, ``SyncCache/values(_:from:where:order:every:decoder:)``) and the read
/// API's event streams and long polls.
///
/// One watcher looks for all of them, and only while one waits: it reads the storage's generation (SQLite's
/// `data_version` from the shared memory, PostgreSQL's commit counter) as often as the most eager waiter asked, and
/// at once when this process committed (``changed()``). A thousand event streams cost one look, not a thousand.
///
/// A waiter holds nothing but its continuation: there is no queue of commits a slow one could let grow.
package final class CommitNotifier: Sendable {
    private struct Waiter {
        var continuation: CheckedContinuation<Int64?, Never>
        /// The generation the waiter has seen: any other is news to it.
        var seen: Int64?
        var interval: Duration
        /// Ends the wait when its time is up; cancelled when it ends otherwise.
        var timer: Task<Void, Never>?
    }

    private struct State {
        var next = 0
        var waiters: [Int: Waiter] = [:]
        /// Whether the watcher runs; it stops when nobody waits.
        var watching = false
        /// The watcher between two looks.
        var napping: CheckedContinuation<Void, Never>?
        /// A commit in this process while the watcher was looking: its next nap ends at once.
        var woken = false
    }

    private let state = Mutex(State())
    private let generation: @Sendable () throws -> Int64

    /// - Parameter generation: The storage's commit counter (``ReadStorage/generation()``).
    init(generation: @escaping @Sendable () throws -> Int64) {
        self.generation = generation
    }

    /// The storage's generation now; `nil` when it cannot be read this moment.
    package func current() -> Int64? {
        try? generation()
    }

    /// Returns the storage's generation as soon as it is other than `seen`, looking at least every `interval`;
    /// `nil` when `timeout` (if any) passes first or the task is cancelled.
    ///
    /// A caller that reads `seen` (``current()``) before reading the data misses no commit after that read.
    package func next(
        after seen: Int64?, lookingEvery interval: Duration, within timeout: Duration? = nil
    ) async -> Int64? {
        if let now = current(), now != seen { return now }
        let token = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let startWatcher = state.withLock { state in
                    state.waiters[token] = Waiter(continuation: continuation, seen: seen, interval: interval)
                    defer { state.watching = true }
                    return !state.watching
                }
                if Task.isCancelled { return resume(token, with: nil) }
                if startWatcher { Task { await self.watch() } }
                if let timeout {
                    let timer = Task {
                        try? await Task.sleep(for: timeout)
                        if !Task.isCancelled { self.resume(token, with: nil) }
                    }
                    let waiting = state.withLock { state in
                        guard state.waiters[token] != nil else { return false }
                        state.waiters[token]?.timer = timer
                        return true
                    }
                    // The wait already ended: the timer has nothing to end.
                    if !waiting { timer.cancel() }
                }
            }
        } onCancel: {
            resume(token, with: nil)
        }
    }

    /// Something was committed in this process: the watcher looks now.
    func changed() {
        let napping = state.withLock { state in
            guard let napping = state.napping else {
                state.woken = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.napping = nil
            return napping
        }
        napping?.resume()
    }

    /// Ends one wait, if it has not ended.
    private func resume(_ token: Int, with generation: Int64?) {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: token) }) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: generation)
    }

    /// Looks at the generation while anyone waits, ending the waits it is news to. A look that fails (the database
    /// cannot be read for a moment) ends none, and the next look tries again.
    private func watch() async {
        while true {
            let interval: Duration? = state.withLock { state in
                guard let interval = state.waiters.values.map(\.interval).min() else {
                    state.watching = false
                    return nil
                }
                return interval
            }
            guard let interval else { return }
            await nap(interval)
            guard let now = current() else { continue }
            let told = state.withLock { state in
                let tokens = state.waiters.filter { $0.value.seen != now }.map(\.key)
                return tokens.compactMap { state.waiters.removeValue(forKey: $0) }
            }
            for waiter in told {
                waiter.timer?.cancel()
                waiter.continuation.resume(returning: now)
            }
        }
    }

    /// Returns after `interval`, or sooner when ``changed()`` says this process committed.
    private func nap(_ interval: Duration) async {
        await withCheckedContinuation { continuation in
            let woken = state.withLock { state in
                if state.woken {
                    state.woken = false
                    return true
                }
                state.napping = continuation
                return false
            }
            if woken { return continuation.resume() }
            Task {
                try? await Task.sleep(for: interval)
                let napping = self.state.withLock { state in
                    defer { state.napping = nil }
                    return state.napping
                }
                napping?.resume()
            }
        }
    }
}
