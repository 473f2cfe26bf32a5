import Foundation
import SyncTesting
import Testing

@testable import SyncSystemd

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A real AF_UNIX datagram socket standing in for systemd's NOTIFY_SOCKET. Each test sends, then reads with a
/// blocking `recv`: the datagram is queued before `sendto` returns, so nothing waits on time. `SO_RCVTIMEO` only turns
/// a datagram that never comes (a bug) into a failure instead of a hung test run.
private final class NotifySocket {
    let descriptor: Int32
    /// The value for NOTIFY_SOCKET.
    let environmentValue: String
    private let directory: TemporaryDirectory?

    /// A socket bound to a path in a new temporary directory.
    init() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notify")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }  // NUL-terminated: zeroed
        descriptor = try Self.makeSocket(binding: &address, length: socklen_t(MemoryLayout<sockaddr_un>.size))
        environmentValue = path
        self.directory = directory
    }

    /// A socket bound in Linux's abstract namespace: `sun_path` is a NUL and the name, and the length counts exactly
    /// those bytes after the 2-byte `sun_family` (a different length is a different name).
    init(abstractName name: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [UInt8(0)] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        descriptor = try Self.makeSocket(binding: &address, length: socklen_t(2 + bytes.count))
        environmentValue = "@" + name
        directory = nil
    }

    private static func makeSocket(binding address: inout sockaddr_un, length: socklen_t) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0, "socket: errno \(errno)")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        if bound != 0 {
            let error = errno
            close(descriptor)
            try #require(bound == 0, "bind: errno \(error)")
        }
        return descriptor
    }

    /// The next datagram, as text.
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        try #require(count >= 0, "recv: errno \(errno) (no datagram arrived)")
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Whether no datagram is queued (`recv` with MSG_DONTWAIT finds none).
    var isEmpty: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    deinit {
        close(descriptor)
    }
}

@Suite("SystemdNotifier")
struct SystemdNotifierTests {
    @Test("ready, status, stopping and watchdog each send exactly their fields as one datagram")
    func datagrams() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        #expect(notifier.isEnabled)

        notifier.ready(status: "syncing 3 endpoints")
        #expect(try socket.receive() == "READY=1\nSTATUS=syncing 3 endpoints")
        notifier.ready(status: nil)
        #expect(try socket.receive() == "READY=1")
        notifier.status("2 endpoints fresh, 1 failing")
        #expect(try socket.receive() == "STATUS=2 endpoints fresh, 1 failing")
        notifier.stopping()
        #expect(try socket.receive() == "STOPPING=1")
        notifier.watchdog()
        #expect(try socket.receive() == "WATCHDOG=1")
        notifier.notify([("STATUS", "draining"), ("EXTEND_TIMEOUT_USEC", "5000000")])
        #expect(try socket.receive() == "STATUS=draining\nEXTEND_TIMEOUT_USEC=5000000")
        #expect(socket.isEmpty)
    }

    @Test("reloading sends RELOADING=1 with the CLOCK_MONOTONIC time in microseconds")
    func reloading() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])

        let before = SystemdNotifier.monotonicMicroseconds()
        notifier.reloading()
        let after = SystemdNotifier.monotonicMicroseconds()

        let lines = try socket.receive().split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 2)
        #expect(lines[0] == "RELOADING=1")
        #expect(lines[1].hasPrefix("MONOTONIC_USEC="))
        let microseconds = try #require(UInt64(lines[1].dropFirst("MONOTONIC_USEC=".count)))
        #expect(before > 0)
        #expect((before...after).contains(microseconds))
        #expect(socket.isEmpty)
    }

    @Test("an abstract NOTIFY_SOCKET (@name) reaches the socket of that name, not one with a trailing NUL")
    func abstractNamespace() throws {
        let name = "syncd-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let socket = try NotifySocket(abstractName: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        #expect(notifier.isEnabled)

        notifier.ready(status: "listening on 127.0.0.1:8787")
        #expect(try socket.receive() == "READY=1\nSTATUS=listening on 127.0.0.1:8787")
        notifier.stopping()
        #expect(try socket.receive() == "STOPPING=1")
    }

    @Test("line breaks in a value become one space, so a STATUS cannot add fields")
    func statusIsOneLine() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])

        notifier.status("users: 503\r\nflags: ok\nREADY=1\r")
        #expect(try socket.receive() == "STATUS=users: 503 flags: ok READY=1")
        notifier.ready(status: "\nstarting\n\nup")
        #expect(try socket.receive() == "READY=1\nSTATUS=starting up")
    }

    @Test("without NOTIFY_SOCKET every call is a no-op")
    func disabledWithoutSocket() {
        let notifier = SystemdNotifier(environment: ["PATH": "/usr/bin"])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        notifier.ready(status: "ready")
        notifier.status("status")
        notifier.reloading()
        notifier.stopping()
        notifier.watchdog()
        notifier.notify([("READY", "1")])
    }

    @Test(
        "a NOTIFY_SOCKET that is not an absolute path or @name, or too long for sun_path, disables the notifier",
        arguments: [
            "", "notify", "./notify", "@", "vsock:2:1234", "/" + String(repeating: "a", count: 107),
            "@" + String(repeating: "a", count: 108),
        ])
    func unusableSocket(value: String) {
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": value]).isEnabled)
    }

    @Test("the longest path and abstract name that fit sun_path are accepted")
    func longestAddresses() {
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "a", count: 106)]).isEnabled)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + String(repeating: "a", count: 107)]).isEnabled)
    }

    @Test("a socket that is gone is ignored: systemd may have exited")
    func vanishedSocket() throws {
        let directory = try TemporaryDirectory()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.file("gone")])
        #expect(notifier.isEnabled)
        notifier.ready(status: "nobody listens")
        notifier.watchdog()
        notifier.stopping()
    }

    @Test("the watchdog interval is half of WATCHDOG_USEC when WATCHDOG_PID is absent or this process")
    func watchdogInterval() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "60000000"]).watchdogInterval == .seconds(30))
        let ownPID = ["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": String(getpid())]
        #expect(SystemdNotifier(environment: ownPID).watchdogInterval == .seconds(30))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "1001"]).watchdogInterval == .microseconds(500))
    }

    @Test(
        "no watchdog interval when WATCHDOG_USEC is unset, zero or not a number, or WATCHDOG_PID is another process",
        arguments: [
            [:],
            ["WATCHDOG_USEC": "0"],
            ["WATCHDOG_USEC": "1"],
            ["WATCHDOG_USEC": "-60000000"],
            ["WATCHDOG_USEC": "60s"],
            ["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": String(getpid() + 1)],
            ["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "self"],
        ])
    func noWatchdogInterval(environment: [String: String]) {
        #expect(SystemdNotifier(environment: environment).watchdogInterval == nil)
    }
}
