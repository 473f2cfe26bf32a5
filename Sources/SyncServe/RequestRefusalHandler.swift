internal import NIOCore
internal import NIOHTTP1

/// Refuses, with a `400` problem answer in its turn, what the router must never see: a request whose `Host` lines
/// break RFC 9112 §3.2, and bytes NIO's HTTP/1 decoder cannot read as a request.
///
/// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that
/// lacks a Host header field and to any request message that contains more than one Host header field line". This
/// sits between NIO's HTTP/1 codec and the conversion to HTTP types, the only place that still sees the request's
/// version and every `Host` line (the conversion keeps the first as the authority), and the decoder's errors (a head
/// over its 80 KiB, bare LFs, a malformed line), which Hummingbird would answer with a bare `400` and no body. A
/// refused request is answered after the answers owed to the requests before it on the connection, and the
/// connection is then closed: what follows a request that could not be read is not read.
final class RequestRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
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
    /// Whether the refusal was sent: nothing is read or answered after it.
    private var refused = false

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

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard refusal == nil else { return }
        refusal = Self.problem(parserError)
        if unanswered == 0 { refuse(context) }
    }

    /// The sentence for what NIO's decoder could not read; never a byte of the request itself.
    static func problem(_ error: HTTPParserError) -> ReadAPIError {
        switch error {
        case .headerOverflow:
            .badParameter("request", "The request head is larger than 80 KiB; send a shorter target or fewer fields.")
        case .invalidURL:
            .badParameter("request", "The request target is not a valid URL path.")
        default:
            .badParameter("request", "The request is not well-formed HTTP/1.1 (each line must end in CRLF).")
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
        guard let refusal, !refused else { return }
        refused = true
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
