import NIOCore
import NIOHTTP1
import NIOPosix
package import NIOSSL
import SyncCore
import SyncHTTP

/// An HTTP/1.1 server on 127.0.0.1 whose every answer comes from a handler the caller controls: the demo's upstream,
/// and the upstream tests steer (ETags, 304s, any status, truncated and stalled bodies).
///
/// Connections are kept alive between requests unless the client asks to close; `HEAD` gets the head of the response
/// the handler returns, without its body.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start { request in
///     request.path == "/items" ? .json(Array("[]".utf8)) : UpstreamResponse(status: 404)
/// }
/// let url = server.baseURL + "/items"
/// // … requests to url …
/// try await server.shutdown()
/// ```
///
/// Call ``shutdown()`` when done: it is what stops the accept loop and closes every connection.
package final class LoopbackHTTPServer: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// The port the server listens on.
    package let port: Int
    /// Whether it speaks HTTPS (``start(port:tls:handler:)`` with a TLS context).
    private let isTLS: Bool
    private let book: ConnectionBook
    private let listener: any Channel
    private let acceptLoop: Task<Void, Never>

    private init(port: Int, isTLS: Bool, book: ConnectionBook, listener: any Channel, acceptLoop: Task<Void, Never>) {
        self.port = port
        self.isTLS = isTLS
        self.book = book
        self.listener = listener
        self.acceptLoop = acceptLoop
    }

    deinit {
        // Without shutdown() the loop would serve on, unowned; cancelling it closes the listener and the connections.
        acceptLoop.cancel()
    }

    /// `http://127.0.0.1:PORT` (`https://` with TLS), without a trailing slash.
    package var baseURL: String {
        "\(isTLS ? "https" : "http")://127.0.0.1:\(port)"
    }

    /// How many requests were answered so far: counted when the handler returns, before the first byte of the
    /// response is sent, so a client that has read a response finds it counted. Stalled answers count too.
    package var requestCount: Int {
        book.requestCount
    }

    /// Binds 127.0.0.1 and serves until ``shutdown()``.
    ///
    /// - Parameters:
    ///   - port: The port to bind; 0 (the default) takes an ephemeral port, which ``port`` then tells.
    ///   - tls: HTTPS with this server context (its certificate, and whether it requires a client's); plain HTTP
    ///     when nil, the default.
    ///   - onEventLoop: Whether the connections are served on the listener's event loop, as an HTTPS server's always
    ///     are, rather than on Swift's shared pool: for a test's upstream, which must answer while the tests beside
    ///     it hold the pool's threads with CPU-bound work.
    ///   - handler: Answers each request; it runs once per request, concurrently for different connections.
    /// - Throws: NIO's error if the port cannot be bound, or ``LoopbackHTTPServerError``.
    /// - Returns: The running server.
    package static func start(
        port: Int = 0,
        tls: NIOSSLContext? = nil,
        onEventLoop: Bool = false,
        handler: @escaping @Sendable (UpstreamRequest) async -> UpstreamResponse
    ) async throws -> LoopbackHTTPServer {
        let book = ConnectionBook()
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(to: address) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try book.register(channel)
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        guard let boundPort = listener.channel.localAddress?.port else {
            try await listener.channel.close()
            throw LoopbackHTTPServerError(message: "the listening socket has no local address")
        }
        // The bridge from start(), which returns, to the accept loop, which runs until shutdown(). The server owns
        // this task: shutdown() cancels and awaits it, and it awaits every connection's task, so nothing outlives it.
        // An HTTPS server's connections are served on its listener's event loop, not Swift's shared pool: a TLS
        // handshake waits for its connection's reader, and with the pool's threads held by the tests beside it, a
        // client's connect (handshake included) timed out, as the test proxy's tunnels once did.
        let executor = tls == nil && !onEventLoop ? nil : EventLoopTaskExecutor(listener.channel.eventLoop)
        let acceptLoop = Task(executorPreference: executor) {
            await acceptConnections(from: listener, book: book, handler: handler)
        }
        return LoopbackHTTPServer(
            port: boundPort, isTLS: tls != nil, book: book, listener: listener.channel, acceptLoop: acceptLoop)
    }

    /// Stops listening, closes every open connection (stalled ones too) and waits until all of their work has ended.
    ///
    /// A handler already running is cancelled and awaited, not abandoned; one that ignores cancellation and never
    /// returns keeps this call waiting. Calling it again, or concurrently, waits for the same end.
    ///
    /// - Throws: NIO's error if the listening socket failed to close; the connections are closed and their work has
    ///   ended all the same.
    package func shutdown() async throws {
        let openConnections = book.beginShutdown()
        var listenerError: (any Error)?
        do {
            try await listener.close()
        } catch ChannelError.alreadyClosed {
            // A second shutdown, or the accept loop ended first and closed it.
        } catch {
            listenerError = error
        }
        acceptLoop.cancel()
        for connection in openConnections {
            connection.close(promise: nil)
        }
        await acceptLoop.value
        if let listenerError {
            throw listenerError
        }
    }

    /// Accepts connections until the listener closes or the task is cancelled, serving each in a child task.
    private static func acceptConnections(
        from listener: NIOAsyncChannel<Connection, Never>,
        book: ConnectionBook,
        handler: @escaping @Sendable (UpstreamRequest) async -> UpstreamResponse
    ) async {
        await withDiscardingTaskGroup { group in
            do {
                try await listener.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask {
                            await serve(connection, book: book, handler: handler)
                        }
                    }
                }
            } catch {
                // Cancelled by shutdown(), or the listener failed: stop accepting. Open connections end when
                // shutdown() closes them or their clients leave; the group waits for them.
            }
        }
    }
}
