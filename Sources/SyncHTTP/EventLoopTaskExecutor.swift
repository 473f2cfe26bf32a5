package import NIOCore

/// Runs the jobs of the tasks that prefer it on one NIO event loop.
///
/// A run spends most of its life waiting for AsyncHTTPClient, whose answers arrive on an event loop: a task that runs
/// there too resumes in that thread's own queue, where on the cooperative pool each answer woke a pool thread and
/// each request woke the loop back. With 10,000 endpoints polled every 10 seconds, those wake-ups were the largest
/// part of the daemon's CPU. What such a task does between two awaits runs on the loop, so it must not block: the
/// syncs' database work runs on the database queue's thread, and their decoding on threads of its own, except the
/// short steps that find the connection free (an endpoint's state, a 304's two rows: tens of microseconds, and the
/// checkpoints that commits bring stay on the queue's thread), and each chunk of a body as it arrives: appended to the
/// run's spool (a write into the page cache) and, for a paged body, passed through the first decoding that finds
/// what decides the next page (tens of microseconds for 64 KiB).
package final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    package init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// Whether the calling code runs on this executor's event loop.
    var runsHere: Bool { loop.inEventLoop }

    /// The event loop the jobs run on.
    var eventLoop: any EventLoop { loop }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { unownedJob.runSynchronously(on: executor) }
    }
}
