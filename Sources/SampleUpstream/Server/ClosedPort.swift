import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses connections for as long as this value lives: a socket bound to it that never
/// listens. Unlike a port that was free a moment ago, no other test's server can take it meanwhile (a socket bound
/// without SO_REUSEADDR keeps the port), so a request sent there fails to connect, always. (In this library, not in
/// a test target: compiled beside the tests that read `struct stat`, its socket calls made a clean build of that
/// target refuse their members under MemberImportVisibility.)
package final class ClosedPort: Sendable {
    /// The port, on 127.0.0.1.
    package let port: Int
    private let descriptor: Int32

    /// Binds a socket to a free loopback port, without listening.
    package convenience init() throws {
        try self.init(port: 0, sharedWithListener: false)
    }

    /// Binds a socket to `port` (0: a free one), without listening.
    ///
    /// - Parameter sharedWithListener: Sets SO_REUSEPORT, so that the port can be held while a listener that set it
    ///   too is bound to it, and the listener closed without the port becoming free (``FaultServer``'s refusals).
    package init(port: Int, sharedWithListener: Bool) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        if sharedWithListener {
            var on: Int32 = 1
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
            else {
                let error = POSIXError(.init(rawValue: errno) ?? .EIO)
                close(descriptor)
                throw error
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(clamping: port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
