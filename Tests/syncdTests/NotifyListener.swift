import Foundation
import Synchronization

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: the daemon's READY/STATUS/STOPPING messages
/// become events a test awaits, instead of sleeping.
///
/// A thread of its own reads every datagram as it arrives, whether or not a test is waiting: the kernel queues only
/// `net.unix.max_dgram_qlen` (often 10) of them, and the daemon drops a message rather than block, so a socket read
/// only while awaiting lost STOPPING=1 behind STATUS lines sent while the test ran commands.
final class NotifyListener: Sendable {
    let path: String
    private let inbox: Inbox

    /// What the reading thread received and who waits for it; shared with that thread, which ends when the listener
    /// is gone.
    private final class Inbox: Sendable {
        struct State {
            var messages: [String] = []
            var waiter: (resume: CheckedContinuation<String?, Never>, deadline: ContinuousClock.Instant)?
            var closed = false
        }
        let state = Mutex(State())
        let descriptor: Int32
        let path: String

        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        /// Reads until closed; a wait of more than 90 s for the next message ends in nil: a safety net, not
        /// synchronisation, so that a message that never comes fails the test instead of hanging it.
        func read() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                let message = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
                let (resume, closed): (CheckedContinuation<String?, Never>?, Bool) = state.withLock { state in
                    if let message { state.messages.append(message) }
                    guard let waiter = state.waiter else { return (nil, state.closed) }
                    if !state.messages.isEmpty {
                        state.waiter = nil
                        return (waiter.resume, state.closed)
                    }
                    if ContinuousClock.now >= waiter.deadline {
                        state.waiter = nil
                        return (waiter.resume, state.closed)
                    }
                    return (nil, state.closed)
                }
                if let resume {
                    resume.resume(returning: state.withLock { $0.messages.isEmpty ? nil : $0.messages.removeFirst() })
                }
                if closed { break }
            }
            close(descriptor)
            unlink(path)
        }
    }

    init(directory: String) throws {
        path = directory + "/notify.sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw CocoaError(.fileWriteUnknown)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw CocoaError(.fileWriteUnknown)
        }
        // The reading thread looks up from recv this often: to see a deadline pass, or the listener go.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let inbox = Inbox(descriptor: descriptor, path: path)
        self.inbox = inbox
        let thread = Thread { inbox.read() }
        thread.name = "syncd-tests-notify"
        thread.start()
    }

    deinit {
        inbox.state.withLock { $0.closed = true }
    }

    /// The next datagram, in the order they arrived; nil after 90 s without one: the safety net, long because a
    /// loaded machine runs the daemon slowly.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: String?? = inbox.state.withLock { state in
                if !state.messages.isEmpty { return .some(state.messages.removeFirst()) }
                state.waiter = (continuation, ContinuousClock.now + .seconds(90))
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until datagrams containing each of `texts` arrived, in any order; returns every datagram seen.
    func waitFor(_ texts: String...) async -> [String] {
        var seen: [String] = []
        var missing = Set(texts)
        while !missing.isEmpty, let message = await next() {
            seen.append(message)
            missing = missing.filter { !message.contains($0) }
        }
        return seen
    }
}
