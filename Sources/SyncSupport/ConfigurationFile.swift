#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that could not be read, with a reason fit to follow its path: `no such file`, `permission denied`.
package struct FileReadError: Error {
    package var isNotFound: Bool
    package var reason: String
}

/// Reads the small files the configuration names: the configuration itself, secret files, `body_file`, the
/// PostgreSQL password file.
package enum ConfigurationFile {
    /// Reads a whole regular file of at most `limit` bytes: a longer one is refused after `limit + 1` bytes, so a
    /// wrong path cannot fill the memory.
    ///
    /// The file is opened without blocking and checked through its descriptor: a FIFO (whose `open` would wait for
    /// a writer, holding up `check-config`, or a reload and with it SIGTERM), a device (`/dev/zero`, a terminal) or
    /// a directory is refused at once, and nothing can be swapped in between the check and the read.
    package static func readBytes(atPath path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw error(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw error(EISDIR)
        case S_IFIFO: throw FileReadError(isNotFound: false, reason: "is a FIFO, not a regular file")
        case S_IFSOCK: throw FileReadError(isNotFound: false, reason: "is a socket, not a regular file")
        default: throw FileReadError(isNotFound: false, reason: "is a device, not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= limit else {
                throw FileReadError(isNotFound: false, reason: "is larger than \(ByteCount.format(limit))")
            }
        }
    }

    /// Reads a whole regular file of at most `limit` bytes that must be UTF-8 text.
    package static func readText(atPath path: String, limit: Int) throws(FileReadError) -> String {
        let bytes = try readBytes(atPath: path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileReadError(isNotFound: false, reason: "is not UTF-8 text")
        }
        return text
    }

    private static func error(_ code: Int32) -> FileReadError {
        switch code {
        case ENOENT, ENOTDIR: FileReadError(isNotFound: true, reason: "no such file")
        case EACCES, EPERM: FileReadError(isNotFound: false, reason: "permission denied")
        case EISDIR: FileReadError(isNotFound: false, reason: "is a directory, not a file")
        // What open(2) says of a socket file, or of a device with no driver behind it.
        case ENXIO: FileReadError(isNotFound: false, reason: "is a socket or a device, not a regular file")
        default: FileReadError(isNotFound: false, reason: "cannot be read: \(String(cString: strerror(code)))")
        }
    }
}
