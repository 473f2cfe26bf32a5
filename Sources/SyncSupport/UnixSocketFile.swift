#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket file of a `unix:` listen: one a previous run left behind is replaced, one a live daemon answers on is
/// not, and a new one gets its mode whatever the process's umask.
///
/// In SyncCore rather than beside the read server: SyncServe's first files import NIO before the C library, and in a
/// whole-module (release) build `stat` was then taken for the declaration of NIO's C module, which includes
/// `<sys/stat.h>` too, and refused by MemberImportVisibility. SyncServe names no `stat` at all now.
package enum UnixSocketFile {
    /// The mode of the read API's socket file: its owner and group may connect, nobody else, whatever the umask
    /// (without a token, whoever may connect may read the whole cache).
    package static let mode = 0o660

    /// Why a socket file cannot be bound.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// A process accepts connections on it: another daemon, which a second one must not take the socket from.
        case inUse(path: String)

        package var description: String {
            switch self {
            case .inUse(let path):
                "the read API cannot listen on unix:\(path): another process is listening on it (stop it, or set "
                    + "another [server] listen)"
            }
        }
    }

    /// Makes `path` ready to be bound: a socket file nobody listens on (a killed daemon's) is removed; anything else
    /// at that path is left alone (the bind then fails, saying so).
    ///
    /// - Throws: ``Problem/inUse(path:)`` when a process accepts a connection on the socket file.
    package static func prepare(at path: String) throws(Problem) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return }
        guard !isAnswering(path) else { throw .inUse(path: path) }
        unlink(path)
    }

    /// Gives the bound socket file at `path` its ``mode``.
    ///
    /// - Returns: Whether it could (the file is the daemon's own, just bound: only a file swapped in between fails).
    package static func setMode(at path: String) -> Bool {
        chmod(path, mode_t(mode)) == 0
    }

    /// Whether a connection to the socket at `path` is accepted (a connect to a socket nobody listens on is refused
    /// at once with ECONNREFUSED; one with a listener succeeds, or fails with EAGAIN when its backlog is full,
    /// which is a live listener too).
    private static func isAnswering(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer -> Bool in
            let bytes = Array(path.utf8)
            guard bytes.count < buffer.count else { return false }
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            return true
        }
        guard fits else { return false }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 || errno == EAGAIN
    }
}
