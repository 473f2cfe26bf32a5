package import SyncSQLite
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Read bodies that keep their thread until released, announcing when they hold it.
package final class Gate: Sendable {
    private let released = Atomic<Bool>(false)
    package let holding: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init() {
        (holding, continuation) = AsyncStream.makeStream()
    }

    /// Runs on a read thread: keeps it until ``release()``.
    package func hold() {
        continuation.yield()
        while !released.load(ordering: .acquiring) { sched_yield() }
    }

    package func release() {
        released.store(true, ordering: .releasing)
    }
}

/// Runs `body` while `count` reads of `pool` hold a read thread each.
package func whileReadsHold(
    _ count: Int, of pool: ReadConnectionPool, _ body: () async throws -> Void
) async throws {
    let gate = Gate()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<count { group.addTask { try await pool.read { _ in gate.hold() } } }
        var holding = gate.holding.makeAsyncIterator()
        for _ in 0..<count { await holding.next() }
        do {
            try await body()
        } catch {
            gate.release()
            throw error
        }
        gate.release()
        try await group.waitForAll()
    }
}
