internal import ServiceLifecycle

#if canImport(Glibc)
    internal import Glibc
#endif

/// Hands the heap's free pages back to the kernel every `interval` (glibc's `malloc_trim`).
///
/// glibc keeps what a thread's arena freed for that arena to use again, and returns to the kernel only what sits at
/// the top of the main heap, so the memory of a burst (the first pass over thousands of endpoints, a large body)
/// stays in the process's RSS long after the burst: 165 MB after the first pass over 10,000 endpoints, of which 33 MB
/// was free. A trim costs a walk over the arenas' free lists. Elsewhere than glibc this does nothing.
struct MemoryTrimService: Service {
    var interval: Duration = .seconds(30)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            _ = Self.trim?(0)
        }
    }

    /// glibc's `int malloc_trim(size_t pad)`, looked up at run time: Glibc's module map leaves out malloc.h, and a C
    /// library other than glibc has none.
    static let trim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()
}
