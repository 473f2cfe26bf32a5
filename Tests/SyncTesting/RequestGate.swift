import Synchronization

/// A gate a test upstream's requests wait at while it is held: the test knows a run is under way (its request is in,
/// and held) while it looks at what syncd does meanwhile, then lets it through. Nothing waits on time.
///
/// ```swift
/// gate.hold()
/// … // the upstream's handler: await gate.pass()
/// gate.release()
/// ```
package final class RequestGate: Sendable {
    private let state = Mutex((holding: false, held: [CheckedContinuation<Void, Never>]()))

    package init(holding: Bool = false) {
        state.withLock { $0.holding = holding }
    }

    /// From now on, requests wait in ``pass()`` until ``release()``.
    package func hold() { state.withLock { $0.holding = true } }

    /// Lets every waiting request through, and those after it.
    package func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Returns at once while the gate is open; else when it is released.
    package func pass() async {
        await withCheckedContinuation { continuation in
            let holding = state.withLock { state in
                if state.holding { state.held.append(continuation) }
                return state.holding
            }
            if !holding { continuation.resume() }
        }
    }
}
