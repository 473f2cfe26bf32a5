#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A mutex and its condition variable (POSIX's), for a thread that waits on another without the async runtime: the
/// record pipeline's decoding thread and the transaction that consumes its batches. Foundation's `NSCondition`
/// does the same, and linking it takes in all of Foundation, CoreFoundation and ICU's 34 MB of data (issue 45).
///
/// The state it guards is the owner's, read and written only between ``lock()`` and ``unlock()``.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        // Timed waits count on the monotonic clock: a change of the wall clock neither ends nor prolongs one.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        let mutexStatus = pthread_mutex_init(mutex, nil)
        let conditionStatus = pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(mutexStatus == 0 && conditionStatus == 0, "pthread_mutex_init or pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock until another thread signals, then takes it again. Call it in a loop that checks what it
    /// waits for: a wake-up may come without a signal.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// ``wait()``, for at most `timeout`; returns false when the time ran out.
    @discardableResult
    package func wait(timeout: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + Int(min(seconds, 86_400)) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// Wakes every thread waiting.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Wakes one thread waiting.
    package func signal() {
        pthread_cond_signal(condition)
    }
}

/// A thread of its own, detached, running one closure (what Foundation's `Thread` was used for; see
/// ``ThreadCondition`` for why not Foundation's).
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let status = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            preconditionFailure("pthread_create failed with \(status): the process is out of threads or memory")
        }
        #if canImport(Glibc)
            pthread_detach(thread)
        #else
            if let thread { pthread_detach(thread) }
        #endif
    }
}
