#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that could not be read, with a reason fit to follow its path: `no such file`, `permission denied`.
struct FileReadError: Error {
    var isNotFound: Bool
    var reason: String
}

/// Reads the small files the configuration names: the configuration itself and secret files.
enum ConfigurationFile {
    /// Reads a whole file of at most `limit` bytes: a longer one (or an endless one, such as `/dev/zero`) is refused
    /// after `limit + 1` bytes, so a wrong path cannot fill the memory.
    static func readBytes(atPath path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(errno) }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw error(EISDIR) }
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

    /// Reads a whole file of at most `limit` bytes that must be UTF-8 text.
    static func readText(atPath path: String, limit: Int) throws(FileReadError) -> String {
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
        default: FileReadError(isNotFound: false, reason: "cannot be read: \(String(cString: strerror(code)))")
        }
    }
}
