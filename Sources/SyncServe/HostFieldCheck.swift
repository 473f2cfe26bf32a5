internal import NIOCore
internal import NIOHTTP1

/// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that
/// lacks a Host header field and to any request message that contains more than one Host header field line".
///
/// Between NIO's HTTP/1 codec and the conversion to HTTP types, the only place that still sees the request's version
/// and every `Host` line (the conversion keeps the first as the authority). A refused request is answered in its
/// turn — after the answers owed to the requests before it on the connection — and the connection is then closed:
/// what follows a request whose target authority is unknown is not read.
final class HostFieldCheck: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let serverName: String
    private let counters: RequestCounters
    /// Whether an HTTP/1.1 request must have a `Host`: on a TCP listen. A Unix socket has no authority to name, and
    /// AsyncHTTPClient, for one, sends no `Host` over it.
    private let requiresHost: Bool
    /// Requests handed on whose answers have not ended.
    private var unanswered = 0
    /// The answer to a refused request, once refused: sent when `unanswered` reaches 0.
    private var refusal: ReadAPIError?

    init(serverName: String, counters: RequestCounters, requiresHost: Bool) {
        self.serverName = serverName
        self.counters = counters
        self.requiresHost = requiresHost
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusal == nil else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let problem = Self.problem(head, requiresHost: requiresHost) {
                refusal = problem
                if unanswered == 0 { refuse(context) }
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ended: Bool
        if case .end = unwrapOutboundIn(data) { ended = true } else { ended = false }
        context.write(data, promise: promise)
        if ended, unanswered > 0 {
            unanswered -= 1
            if unanswered == 0, refusal != nil { refuse(context) }
        }
    }

    /// What is wrong with the head's `Host` lines, if anything.
    static func problem(_ head: HTTPRequestHead, requiresHost: Bool) -> ReadAPIError? {
        let hosts = head.headers["Host"].count
        if hosts > 1 {
            return .badParameter("Host", "The request has \(hosts) Host fields; send one.")
        }
        if hosts == 0, requiresHost, head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) {
            return .badParameter("Host", "An HTTP/1.1 request needs a Host field.")
        }
        return nil
    }

    /// Answers the refused request with its 400 and closes the connection once the answer is out.
    private func refuse(_ context: ChannelHandlerContext) {
        guard let refusal else { return }
        var headers = HTTPHeaders()
        let body = ByteBuffer(string: refusal.body)
        headers.add(name: "Content-Type", value: "application/problem+json")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Server", value: serverName)
        let head = HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
        counters.count(route: "unmatched", status: 400)
    }
}
