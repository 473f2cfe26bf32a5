internal import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole lines to a file descriptor it does not own, one at a time across the process.
///
/// The lock keeps a line together even when `write(2)` writes part of it (a full pipe, a signal): the rest follows
/// before any other line starts. Errors end the line silently; a log line has nowhere else to go.
final class DescriptorWriter: Sendable {
    /// Standard error (descriptor 2), shared by every ``JournalLogHandler`` writing there.
    static let standardError = DescriptorWriter(descriptor: 2)

    private let descriptor: Int32
    private let lock = Mutex(())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` (its UTF-8 bytes), normally in one `write(2)`; retries after EINTR and after a partial write.
    func write(_ line: String) {
        let bytes = Array(line.utf8)
        lock.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let start = buffer.baseAddress.map { $0 + offset }
                    let written = writeToDescriptor(descriptor, start, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }
}

/// `write(2)`, named apart from ``DescriptorWriter/write(_:)``.
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
