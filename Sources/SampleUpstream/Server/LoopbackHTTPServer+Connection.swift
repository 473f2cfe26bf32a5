import NIOCore
import NIOHTTP1

extension LoopbackHTTPServer {
    /// What a connection does after a response.
    private enum NextStep {
        case readNextRequest
        case close
        case holdSilently
    }

    /// Bodies go out in pieces of this size, so the outbound writer's back-pressure bounds what is buffered.
    private static let bodyChunkSize = 64 * 1024
    /// A request body is kept up to this size (a GraphQL query, a search); the rest is read and dropped.
    private static let keptRequestBytes = 1 << 20

    /// Serves the requests of one connection in order until the client leaves, a response ends it, or shutdown.
    static func serve(
        _ connection: Connection,
        book: ConnectionBook,
        handler: @Sendable (UpstreamRequest) async -> UpstreamResponse
    ) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var parts = inbound.makeAsyncIterator()
                var head: HTTPRequestHead?
                var body: [UInt8] = []
                while let part = try await parts.next() {
                    switch part {
                    case .head(let requestHead):
                        head = requestHead
                        body = []
                    case .body(let buffer):
                        let kept = min(buffer.readableBytes, max(keptRequestBytes - body.count, 0))
                        body += buffer.readableBytesView.prefix(kept)
                    case .end:
                        guard let requestHead = head else { continue }
                        head = nil
                        var request = UpstreamRequest(requestHead)
                        request.body = body
                        let response = await handler(request)
                        book.countRequest()
                        switch try await send(response, answering: requestHead, to: outbound, on: connection.channel) {
                        case .readNextRequest:
                            continue
                        case .close:
                            return
                        case .holdSilently:
                            // Keep the connection open without a word until the client leaves or shutdown() closes it;
                            // either ends this iteration.
                            while try await parts.next() != nil {}
                            return
                        }
                    }
                }
            }
        } catch {
            // A reset, a write to a closed connection, cancellation by shutdown(): this connection ends, no other.
        }
    }

    private static func send(
        _ response: UpstreamResponse,
        answering request: HTTPRequestHead,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        on channel: any Channel
    ) async throws -> NextStep {
        let sentBytes: Int
        switch response.delivery {
        case .stalled:
            return .holdSilently
        case .complete:
            sentBytes = response.body.count
        case .truncated(let afterBytes):
            sentBytes = min(max(afterBytes, 0), response.body.count)
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        try await outbound.write(.head(makeHead(response, status: status, answering: request)))
        if request.method != .HEAD && status.mayHaveResponseBody {
            var start = 0
            while start < sentBytes {
                let end = min(start + bodyChunkSize, sentBytes)
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body[start..<end]))))
                start = end
            }
        }
        if case .complete = response.delivery {
            try await outbound.write(.end(nil))
            if request.isKeepAlive {
                return .readNextRequest
            }
        }
        // Half-close first: it waits until every written byte has left, which a full close would drop.
        try await channel.close(mode: .output)
        return .close
    }

    private static func makeHead(
        _ response: UpstreamResponse,
        status: HTTPResponseStatus,
        answering request: HTTPRequestHead
    ) -> HTTPResponseHead {
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if status.mayHaveResponseBody && !headers.contains(name: "content-length") {
            headers.add(name: "Content-Length", value: String(response.body.count))
        }
        if case .complete = response.delivery, !headers.contains(name: "connection") {
            if !request.isKeepAlive && request.version.minor >= 1 {
                headers.add(name: "Connection", value: "close")
            } else if request.isKeepAlive && request.version.minor == 0 {
                headers.add(name: "Connection", value: "keep-alive")
            }
        }
        return HTTPResponseHead(version: request.version, status: status, headers: headers)
    }
}

extension UpstreamRequest {
    init(_ head: HTTPRequestHead) {
        self.init(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
    }
}
