import NIOPosix
import SyncCore
import SyncHTTP

/// A thread of its own for tests that compute for seconds without an `await` (the decoder's equivalence sweeps).
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core: on a 2-core machine, two such
/// tests occupied both, and every other test's tasks (its loopback server's connections, a body being read) waited
/// behind them until a 30-second request timeout fired. Here they run on two threads outside the pool, which the
/// system shares out with the pool's rather than letting them hold it; the work stays in the test's own task, so
/// `#expect` reports to the test.
package enum CPUBoundWork {
    private static let threads = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    /// Runs `work` on one of the CPU-bound tests' threads.
    package static func run<T: Sendable>(_ work: () throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(threads.next())) { try work() }
    }
}
