import SyncCore
import SyncHTTP

#if canImport(Glibc)
    internal import Glibc
#endif

/// Reads an open descriptor to its end, as `syncd infer -` reads standard input: with read(2), at most a limit.
///
/// Foundation's `FileHandle.readDataToEndOfFile()` traps (a forced `try` inside) when the descriptor is closed or is a
/// directory, and reads without bound; here each failure is a ``FetchError`` of one sentence, and more than `limit`
/// bytes stop the read at `limit + 1`, before the rest is taken into memory.
enum DescriptorReader {
    /// The size of each read(2).
    static let chunkSize = 1 << 20

    /// The bytes read until end of file.
    ///
    /// - Parameters:
    ///   - descriptor: an open descriptor, such as `STDIN_FILENO`.
    ///   - name: what the descriptor is, for messages: `standard input`.
    ///   - limit: the most bytes accepted.
    /// - Throws: ``FetchError`` when the descriptor cannot be read (closed, a directory), or holds more than `limit`.
    static func readAll(_ descriptor: Int32, name: String, limit: Int) throws(FetchError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let wanted = min(chunkSize, limit + 1 - bytes.count)
            var failure: Int32 = 0
            // Each chunk is read into its own array, then appended with one copy (a loop of bytes crawls in debug).
            let chunk = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
                let count = read(descriptor, buffer.baseAddress, wanted)
                if count < 0 { failure = errno }
                initialized = max(0, count)
            }
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                // A non-blocking descriptor with nothing yet: wait until it has something (or its end).
                var event = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&event, 1, -1)
                continue
            }
            if failure != 0 { throw .file(Self.sentence(name: name, errno: failure)) }
            if chunk.isEmpty { return bytes }
            bytes.append(contentsOf: chunk)
            if bytes.count > limit { throw .bodyTooLarge(limit: limit) }
        }
    }

    /// Why a descriptor cannot be read, in one sentence that names it.
    static func sentence(name: String, errno code: Int32) -> String {
        switch code {
        case EBADF: "\(name) is closed, not a JSON response to read"
        case EISDIR: "\(name) is a directory, not a JSON response to read"
        default: "\(name) cannot be read (\(String(cString: strerror(code))))"
        }
    }
}
