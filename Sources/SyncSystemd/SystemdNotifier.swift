#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells systemd how the daemon is doing, as `sd_notify(3)` does, for a unit with `Type=notify`.
///
/// systemd passes the address of its notification socket in `NOTIFY_SOCKET` (a path, or `@name` for the abstract
/// namespace). Each call sends one datagram of `KEY=VALUE` lines to it. Without `NOTIFY_SOCKET`, or with an
/// address this type cannot use, every call does nothing, so the daemon runs the same under systemd, in a
/// terminal and in tests.
///
/// ```swift
/// let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
/// notifier.ready(status: "syncing 3 endpoints")
/// if let interval = notifier.watchdogInterval { /* call watchdog() that often while the scheduler runs */ }
/// ```
///
/// Sending never throws, blocks or traps: systemd may be gone (a failed send is dropped, as `sd_notify` callers
/// ignore its result), and a full queue means systemd is not reading, which its own timeouts report. Each call opens
/// and closes its own socket, as `sd_notify` does, so the value holds no descriptor and is freely `Sendable`.
///
/// ## Topics
/// - ``init(environment:)``
/// - ``ready(status:)``
/// - ``status(_:)``
/// - ``reloading()``
/// - ``stopping()``
/// - ``watchdog()``
/// - ``watchdogInterval``
/// - ``notify(_:)``
package struct SystemdNotifier: Sendable {
    /// Where datagrams go; `nil` when `NOTIFY_SOCKET` is unset or unusable.
    let address: NotifySocketAddress?

    /// Half of `WATCHDOG_USEC`, when the watchdog is meant for this process.
    package let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    ///
    /// - Parameter environment: The process environment, usually `ProcessInfo.processInfo.environment`.
    package init(environment: [String: String]) {
        self.init(environment: environment, processID: Int64(getpid()))
    }

    /// `processID` stands in for `getpid()` in tests.
    init(environment: [String: String], processID: Int64) {
        address = environment["NOTIFY_SOCKET"].flatMap(NotifySocketAddress.init(environmentValue:))
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
    }

    /// Whether calls reach a socket: `NOTIFY_SOCKET` is set to an address this type can use.
    package var isEnabled: Bool { address != nil }

    /// Sends `fields` as one datagram, `KEY=VALUE` lines joined by `\n`, in order.
    ///
    /// A carriage return or line feed inside a value would start a new field (a `STATUS` could then say
    /// `READY=1`), so each run of line breaks becomes one space. Keys are constants of ours: one that is empty or
    /// holds `=` or a line break is a bug, caught by an assertion in debug builds and left out in release builds,
    /// since notifying must never take the daemon down.
    ///
    /// - Parameter fields: Pairs such as `[("READY", "1"), ("STATUS", "syncing 3 endpoints")]`.
    /// Whether there is a systemd to tell (`NOTIFY_SOCKET` names a socket); without one, every message is dropped.
    package var isActive: Bool { address != nil }

    package func notify(_ fields: [(String, String)]) {
        guard let address else { return }
        let lines = fields.compactMap { key, value -> String? in
            guard !key.isEmpty, !key.contains(where: { $0 == "=" || $0.isNewline }) else {
                assertionFailure("invalid sd_notify key \"\(key)\"")
                return nil
            }
            return key + "=" + Self.oneLine(value)
        }
        guard !lines.isEmpty else { return }
        address.send(Array(lines.joined(separator: "\n").utf8))
    }

    /// `READY=1`: startup is finished (migrations ran, the read API listens), with an optional `STATUS=` line.
    ///
    /// - Parameter status: A line of state for `systemctl status`, or `nil` for none.
    package func ready(status: String? = nil) {
        notify([("READY", "1")] + (status.map { [("STATUS", $0)] } ?? []))
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=`, sent when SIGHUP arrives and before the configuration is read again.
    ///
    /// systemd 253 and later require the `CLOCK_MONOTONIC` timestamp beside `RELOADING=1` to match the reload
    /// to the request (sd_notify(3)); older versions ignore it. Follow with ``ready(status:)`` once reloaded.
    package func reloading() {
        notify([("RELOADING", "1"), ("MONOTONIC_USEC", String(Self.monotonicMicroseconds()))])
    }

    /// `STOPPING=1`: shutdown began (SIGTERM); in-flight writes finish or roll back next.
    package func stopping() {
        notify([("STOPPING", "1")])
    }

    /// `STATUS=`: one line of state, shown by `systemctl status`; line breaks become spaces.
    ///
    /// - Parameter line: What the daemon is doing, such as `syncing 3 endpoints, next poll in 4m`.
    package func status(_ line: String) {
        notify([("STATUS", line)])
    }

    /// `WATCHDOG=1`: the daemon is alive. Send it every ``watchdogInterval`` from the scheduler's own loop, so that a
    /// stuck scheduler stops the pings and systemd restarts the service.
    package func watchdog() {
        notify([("WATCHDOG", "1")])
    }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd compares `MONOTONIC_USEC` with.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        guard clock_gettime(CLOCK_MONOTONIC, &now) == 0 else { return 0 }  // cannot fail for this clock
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// The value on one line: each run of line breaks (CR, LF, CRLF, U+2028, …) becomes one space.
    static func oneLine(_ value: String) -> String {
        guard value.contains(where: \.isNewline) else { return value }
        return value.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Half of `WATCHDOG_USEC`, as `sd_watchdog_enabled(3)` reads it: `nil` when unset, not a positive integer, or
    /// when `WATCHDOG_PID` is set to another process (the variables were inherited from a parent).
    private static func watchdogInterval(environment: [String: String], processID: Int64) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
            let half = Int64(exactly: microseconds / 2), half > 0
        else { return nil }
        if let pid = environment["WATCHDOG_PID"] {
            guard let pid = Int64(pid), pid == processID else { return nil }
        }
        return .microseconds(half)
    }
}
