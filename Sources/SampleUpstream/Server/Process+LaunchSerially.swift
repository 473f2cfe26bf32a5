import Foundation
import Synchronization

/// Serialises launches within a process. Foundation's `Process.run()` on Linux is not safe to call from several
/// threads at once: a full test suite starting dozens of processes in parallel crashed in its memcpy. The lock lives
/// here, in a library both test targets link, because they run in one process: a lock per target would let a
/// launch from one race a launch from the other (which is how the crash came back). The launches are milliseconds;
/// the processes still run side by side once started.
private let launchLock = Mutex(())

extension Process {
    /// `run()`, never at the same time as another `launchSerially()` in this process.
    package func launchSerially() throws {
        try launchLock.withLock { _ in try run() }
    }
}
