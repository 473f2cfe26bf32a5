import Foundation
import Synchronization

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: the daemon's READY/STATUS/STOPPING messages
/// become events a test awaits, instead of sleeping.
final class NotifyListener: Sendable {
    let path: String
    private let descriptor: Int32

    init(directory: String) throws {
        path = directory + "/notify.sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw CocoaError(.fileWriteUnknown) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw CocoaError(.fileWriteUnknown) }
        // A safety net, not synchronisation: a message that never comes fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, received on a thread of its own (never on the cooperative pool); nil after the safety net.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let thread = Thread { [descriptor] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                continuation.resume(returning: count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil)
            }
            thread.start()
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
