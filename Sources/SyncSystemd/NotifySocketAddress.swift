#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `AF_UNIX` address in `NOTIFY_SOCKET`, and the datagram send to it.
///
/// `/run/systemd/notify` is a path; `@name` is `name` in Linux's abstract namespace, whose `sun_path` starts with a
/// NUL byte and whose length counts exactly the name's bytes (no terminator: a trailing NUL would be part of the
/// name). Anything else, and a name too long for `sun_path`, is refused as `sd_notify` refuses it (`-EINVAL`); systemd
/// 254's `vsock:` addresses are not supported.
struct NotifySocketAddress: Sendable, Equatable {
    /// The bytes of `sun_path`: the path with its NUL terminator, or NUL and the abstract name.
    let pathBytes: [UInt8]

    /// Parses `NOTIFY_SOCKET`; `nil` for a value this type cannot send to.
    init?(environmentValue value: String) {
        #if !os(Linux)
            return nil  // systemd exists on Linux only
        #endif
        let bytes = Array(value.utf8)
        switch bytes.first {
        case UInt8(ascii: "/"):
            pathBytes = bytes + [0]
        case UInt8(ascii: "@") where bytes.count > 1:
            pathBytes = [0] + bytes.dropFirst()
        default:
            return nil
        }
        guard !bytes.dropFirst().contains(0), pathBytes.count <= Self.pathCapacity else { return nil }
    }

    /// Whether this is an abstract-namespace address (`@name`).
    var isAbstract: Bool { pathBytes.first == 0 }

    /// The room in `sockaddr_un.sun_path`: 108 bytes on Linux.
    static var pathCapacity: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) }

    #if os(Linux)
        /// Sends `message` as one datagram from a fresh socket, closed before returning; failures are dropped.
        ///
        /// `MSG_DONTWAIT`: the caller may be on the cooperative pool, which must never block; a full queue means
        /// systemd is not reading. `MSG_NOSIGNAL`: a vanished peer must not raise SIGPIPE.
        func send(_ message: [UInt8]) {
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            withSocketAddress { address, length in
                message.withUnsafeBytes { bytes in
                    var sent: Int
                    repeat {
                        sent = sendto(
                            descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), address,
                            length)
                    } while sent < 0 && errno == EINTR
                }
            }
        }
    #else
        func send(_ message: [UInt8]) {}  // unreachable: init?(environmentValue:) refuses every value off Linux
    #endif

    /// Calls `body` with this address as a `sockaddr` and its length (`sun_path`'s offset plus the bytes used).
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: pathBytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? MemoryLayout<sa_family_t>.size
        let length = socklen_t(pathOffset + pathBytes.count)
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
