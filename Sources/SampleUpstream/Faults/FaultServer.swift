import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 that writes whatever bytes its handler's ``FaultAnswer`` says — lying heads,
/// cut bodies, resets, drips, floods — and can stop accepting connections and start again on the same port, so a
/// client meets a refused connection where a server was.
///
/// Unlike ``LoopbackHTTPServer``, nothing in the answer is checked or completed: a fault is only a fault if the
/// server can write it. Each connection serves one request and is closed; ``shutdown()`` closes those still open
/// (a drip, say).
///
/// ```swift
/// let server = try await FaultServer.start { request in .json(Array("[]".utf8)) }
/// try await server.refuseConnections()   // the port is closed: connections are refused
/// try await server.acceptConnections()   // the same port listens again
/// try await server.shutdown()
/// ```
package final class FaultServer: Sendable {
    /// The port the server listens on, the same after ``refuseConnections()`` and ``acceptConnections()``.
    package let port: Int
    private let answer: @Sendable (UpstreamRequest) -> FaultAnswer
    private let listener: Mutex<(any Channel)?>
    /// While connections are refused: a socket that holds ``port`` without listening, so that no other server (a
    /// test's running beside this one) can take the port and receive what was meant for this one.
    private let hold = Mutex<ClosedPort?>(nil)
    private let log: RequestLog
    private let book: ConnectionBook

    private init(
        port: Int, listener: any Channel, log: RequestLog, book: ConnectionBook,
        answer: @escaping @Sendable (UpstreamRequest) -> FaultAnswer
    ) {
        self.port = port
        self.answer = answer
        self.listener = Mutex(listener)
        self.log = log
        self.book = book
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    package var baseURL: String {
        "http://127.0.0.1:\(port)"
    }

    /// Every request received so far, in order, as the handler saw it.
    package var requests: [UpstreamRequest] {
        log.all
    }

    /// Binds 127.0.0.1 and serves until ``shutdown()``.
    ///
    /// - Parameters:
    ///   - port: The port to bind; 0 (the default) takes an ephemeral port, which ``port`` then tells.
    ///   - handler: Answers each request, on an event loop: it must not block.
    /// - Throws: NIO's error if the port cannot be bound, or ``LoopbackHTTPServerError``.
    /// - Returns: The running server.
    package static func start(
        port: Int = 0, handler: @escaping @Sendable (UpstreamRequest) -> FaultAnswer
    ) async throws -> FaultServer {
        let log = RequestLog()
        let answer: @Sendable (UpstreamRequest) -> FaultAnswer = { request in
            log.append(request)
            return handler(request)
        }
        let book = ConnectionBook()
        let listener = try await bind(port: port, book: book, answer: answer)
        guard let boundPort = listener.localAddress?.port else {
            try await listener.close()
            throw LoopbackHTTPServerError(message: "the listening socket has no local address")
        }
        return FaultServer(port: boundPort, listener: listener, log: log, book: book, answer: answer)
    }

    /// Closes the listening socket: until ``acceptConnections()``, connecting to ``port`` is refused. The port is
    /// held meanwhile, by a socket bound to it before the listener closes.
    ///
    /// - Throws: POSIX's error if the port cannot be held, NIO's if the socket failed to close.
    package func refuseConnections() async throws {
        if listener.withLock({ $0 != nil }), hold.withLock({ $0 == nil }) {
            let holding = try ClosedPort(port: port, sharedWithListener: true)
            hold.withLock { $0 = holding }
        }
        try await closeListener()
    }

    /// Listens on ``port`` again after ``refuseConnections()``; does nothing while listening.
    ///
    /// - Throws: NIO's error if the port cannot be bound again.
    package func acceptConnections() async throws {
        guard listener.withLock({ $0 == nil }) else { return }
        let bound = try await Self.bind(port: port, book: book, answer: answer)
        listener.withLock { $0 = bound }
        hold.withLock { $0 = nil }
    }

    /// Stops listening, lets the port go and closes the connections still open.
    ///
    /// - Throws: NIO's error if the listening socket failed to close; the connections are closed all the same.
    package func shutdown() async throws {
        for connection in book.beginShutdown() {
            connection.close(promise: nil)
        }
        defer { hold.withLock { $0 = nil } }
        try await closeListener()
    }

    private func closeListener() async throws {
        let open = listener.withLock { listener in
            defer { listener = nil }
            return listener
        }
        try await open?.close()
    }

    private static func bind(
        port: Int, book: ConnectionBook, answer: @escaping @Sendable (UpstreamRequest) -> FaultAnswer
    ) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Shared with the socket that holds the port while connections are refused (refuseConnections()).
            .serverChannelOption(
                ChannelOptions.Types.SocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: SO_REUSEPORT)),
                value: 1
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try book.register(channel)
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                    try channel.pipeline.syncOperations.addHandler(FaultConnectionHandler(answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
    }
}

/// The requests a server received, shared with the connections that receive them.
private final class RequestLog: Sendable {
    private let requests = Mutex<[UpstreamRequest]>([])

    var all: [UpstreamRequest] {
        requests.withLock { $0 }
    }

    func append(_ request: UpstreamRequest) {
        requests.withLock { $0.append(request) }
    }
}
