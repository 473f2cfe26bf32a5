import NIOCore
import Synchronization

/// The server's shared bookkeeping: the open connections, whether shutdown has begun, and the request count.
///
/// Shared by the listener's child-channel initializer (on event loops), the connection tasks and
/// ``LoopbackHTTPServer``, hence a `Mutex`.
final class ConnectionBook: Sendable {
    private struct State {
        var isShuttingDown = false
        var connections: [ObjectIdentifier: any Channel] = [:]
        var requestCount = 0
    }

    private let state = Mutex(State())

    /// Records a newly accepted connection until it closes.
    ///
    /// - Throws: ``LoopbackHTTPServerError`` once shutdown has begun; the bootstrap then closes the connection.
    func register(_ channel: any Channel) throws {
        let id = ObjectIdentifier(channel)
        try state.withLock { state in
            guard !state.isShuttingDown else {
                throw LoopbackHTTPServerError(message: "the server is shutting down and accepts no connection")
            }
            state.connections[id] = channel
        }
        channel.closeFuture.whenComplete { _ in
            self.state.withLock { _ = $0.connections.removeValue(forKey: id) }
        }
    }

    /// Marks the server as shutting down and returns the connections open at this moment, for closing.
    func beginShutdown() -> [any Channel] {
        state.withLock { state in
            state.isShuttingDown = true
            return Array(state.connections.values)
        }
    }

    func countRequest() {
        state.withLock { $0.requestCount += 1 }
    }

    var requestCount: Int {
        state.withLock { $0.requestCount }
    }
}
