import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// An exclusive lock on a file (`flock`), held until ``release()``: processes that take it wait for each other.
///
/// ```swift
/// let lock = try FileLock("/var/lib/syncd/.syncd-refresh-users.lock")
/// defer { lock.release() }
/// ```
final class FileLock {
    private let descriptor: Int32

    /// Opens (or creates, mode 0600) the file and waits for its lock.
    ///
    /// - Throws: ``CLIError`` naming the file when it cannot be opened or locked.
    init(_ path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError("cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw CLIError("cannot lock \(path): \(reason)")
        }
    }

    /// Lets the next process have the lock.
    func release() {
        close(descriptor)
    }
}
