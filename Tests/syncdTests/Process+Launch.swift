import Foundation
import Synchronization

/// Serialises launches within the test process. Foundation's `Process.run()` on Linux is not safe to call from several
/// threads at once (a full suite starting dozens of `syncd` processes in parallel crashed in its memcpy once); the
/// launches are milliseconds, and the processes still run side by side once started.
private let launchLock = Mutex(())

extension Process {
    func launchSerially() throws {
        try launchLock.withLock { _ in try run() }
    }
}
