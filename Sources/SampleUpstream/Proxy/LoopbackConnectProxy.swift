import NIOCore
import NIOPosix
import SyncCore
import SyncHTTP
import Synchronization

/// A forward proxy on 127.0.0.1 that tunnels `CONNECT host:port` and records what it saw: each `CONNECT`'s head, and
/// the bytes the client sent through each tunnel (readable for a plain `http://` upstream, TLS for `https://`). The
/// tests' proxy: what syncd sends a proxy is checked on the wire.
///
/// It runs on an event loop of its own, its tasks too (``EventLoopTaskExecutor``): on the cooperative pool, which the
/// tests running beside it share, a tunnel could wait longer than a client's connect timeout for a thread.
///
/// ```swift
/// let proxy = try await LoopbackConnectProxy.start(requiring: "Basic dTpw")
/// // … requests through http://127.0.0.1:\(proxy.port) …
/// proxy.connects.first?.target  // "127.0.0.1:8080"
/// try await proxy.shutdown()
/// ```
package final class LoopbackConnectProxy: Sendable {
    /// One `CONNECT` the proxy received.
    package struct Connect: Sendable {
        /// `host:port`, as in the request line.
        package var target: String
        /// The head's header lines, as sent (names as written).
        package var headers: [(name: String, value: String)]
        /// Whether the proxy opened the tunnel (it refuses a wrong `Proxy-Authorization` with 407).
        package var accepted: Bool
        /// The first bytes (up to 64 KiB) the client sent through the tunnel.
        package var tunnelled: [UInt8] = []

        /// The value of the header `name` (any case), if sent.
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The port the proxy listens on.
    package let port: Int
    private let listener: any Channel
    private let acceptLoop: Task<Void, Never>
    private let recorder: Recorder
    private let group: MultiThreadedEventLoopGroup

    private init(
        port: Int, listener: any Channel, acceptLoop: Task<Void, Never>, recorder: Recorder,
        group: MultiThreadedEventLoopGroup
    ) {
        self.port = port
        self.listener = listener
        self.acceptLoop = acceptLoop
        self.recorder = recorder
        self.group = group
    }

    deinit {
        acceptLoop.cancel()
    }

    /// `http://127.0.0.1:PORT`.
    package var url: String { "http://127.0.0.1:\(port)" }

    /// The `CONNECT`s received so far, in order.
    package var connects: [Connect] { recorder.log.withLock { $0 } }

    /// Starts the proxy.
    ///
    /// - Parameter authorization: The `Proxy-Authorization` value required (`Basic …`); none when nil.
    /// - Returns: The running proxy; call ``shutdown()`` when done.
    /// - Throws: NIO's error if the port cannot be bound.
    package static func start(requiring authorization: String? = nil) async throws -> LoopbackConnectProxy {
        let recorder = Recorder()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let executor = EventLoopTaskExecutor(group.next())
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = listener.channel.localAddress?.port ?? 0
        // The bridge from start(), which returns, to the accept loop, which runs until shutdown() cancels and awaits it.
        let acceptLoop = Task(executorPreference: executor) {
            await withDiscardingTaskGroup { tunnels in
                do {
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            tunnels.addTask {
                                await tunnel(connection, authorization: authorization, recorder: recorder, group: group)
                            }
                        }
                    }
                } catch {
                    // Cancelled by shutdown(): stop accepting.
                }
            }
        }
        return LoopbackConnectProxy(
            port: port, listener: listener.channel, acceptLoop: acceptLoop, recorder: recorder, group: group)
    }

    /// Stops listening, closes the tunnels and waits for them to end.
    package func shutdown() async throws {
        try? await listener.close()  // already closed when the accept loop ended first
        acceptLoop.cancel()
        await acceptLoop.value
        try await group.shutdownGracefully()
    }
}

/// Holds the log until the proxy object exists: connections are accepted from the start.
private final class Recorder: Sendable {
    let log = Mutex<[LoopbackConnectProxy.Connect]>([])

    func append(_ connect: LoopbackConnectProxy.Connect) -> Int {
        log.withLock { log in
            log.append(connect)
            return log.count - 1
        }
    }

    func record(_ bytes: ByteBuffer, at index: Int) {
        log.withLock { log in
            let room = max(0, 65_536 - log[index].tunnelled.count)
            log[index].tunnelled += bytes.readableBytesView.prefix(room)
        }
    }
}

extension LoopbackConnectProxy {
    /// Reads one `CONNECT` head, checks it, and pipes bytes both ways until either side closes.
    private static func tunnel(
        _ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, authorization: String?, recorder: Recorder,
        group: MultiThreadedEventLoopGroup
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var reader = inbound.makeAsyncIterator()
            var received = ByteBuffer()
            var headEnd: Int?
            while headEnd == nil, var chunk = try await reader.next() {
                received.writeBuffer(&chunk)
                headEnd = received.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound
                guard received.readableBytes < 65_536 else { return }
            }
            guard let headEnd else { return }
            let start = received.readerIndex
            let head = String(decoding: received.readableBytesView[start..<headEnd], as: UTF8.self)
            received.moveReaderIndex(to: headEnd)
            var lines = head.split(separator: "\r\n").map(String.init)
            let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ").map(String.init)
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
            }
            let target = requestLine.count == 3 && requestLine[0] == "CONNECT" ? requestLine[1] : ""
            var connect = Connect(target: target, headers: headers, accepted: false)
            let sent = connect.header("Proxy-Authorization")
            guard !target.isEmpty, authorization == nil || sent == authorization,
                let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...])
            else {
                _ = recorder.append(connect)
                let status = target.isEmpty ? "405 Method Not Allowed" : "407 Proxy Authentication Required"
                try await outbound.write(
                    ByteBuffer(
                        string: "HTTP/1.1 \(status)\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                            + "Content-Length: 0\r\nConnection: close\r\n\r\n"))
                return
            }
            connect.accepted = true
            let index = recorder.append(connect)
            let upstream = try await ClientBootstrap(group: group)
                .connect(host: String(target[..<colon]), port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            // Inside executeThenClose, which closes the upstream connection however the tunnel ends: a client gone
            // before the answer must not leave it open (NIO traps on a writer dropped unfinished).
            try await upstream.executeThenClose { upstreamInbound, upstreamOutbound in
                try await outbound.write(ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await chunk in upstreamInbound { try await outbound.write(chunk) }
                        outbound.finish()
                    }
                    // This task pipes the client's bytes: it holds the iterator that read the head.
                    if received.readableBytes > 0 {
                        recorder.record(received, at: index)
                        try await upstreamOutbound.write(received)
                    }
                    while let chunk = try await reader.next() {
                        recorder.record(chunk, at: index)
                        try await upstreamOutbound.write(chunk)
                    }
                    upstreamOutbound.finish()
                    try await group.waitForAll()
                }
            }
        }
    }
}
