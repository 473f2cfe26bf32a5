internal import HTTPTypes
internal import Logging
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypes
internal import NIOHTTPTypesHTTP1
internal import SyncCore
import SyncSupport

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Puts a connection's handlers in its pipeline around NIO's HTTP/1 codec: the ``ConnectionGuardHandler`` first,
/// where the bytes arrive; the fast path (a ``ReadFastPathHandler`` in front of the codec, and a
/// ``RouterAnswerCount`` just before the codec that makes HTTP types of requests for Hummingbird, which adds its
/// extra handlers after that codec) when it is on; and the ``RequestRefusalHandler`` next to that codec. It leaves the
/// pipeline once the connection is active.
final class ReadPipelineInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    private let fastPath: ReadFastPath?
    private let serverName: String
    private let limits: ConnectionLimits
    private let counters: RequestCounters
    private let requiresHost: Bool
    private let logger: Logger

    init(
        fastPath: ReadFastPath?, serverName: String, limits: ConnectionLimits, counters: RequestCounters,
        requiresHost: Bool, logger: Logger
    ) {
        self.fastPath = fastPath
        self.serverName = serverName
        self.limits = limits
        self.counters = counters
        self.requiresHost = requiresHost
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandler(ConnectionGuardHandler(limits: limits, logger: logger), position: .first)
        } catch {
            // Only when the channel is closing already.
            context.close(promise: nil)
            return
        }
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        let owed = RouterAnswersOwed()
        do {
            try pipeline.addHandler(RouterAnswerCount(owed), position: .before(codec))
            try pipeline.addHandler(
                RequestRefusalHandler(serverName: serverName, counters: counters, requiresHost: requiresHost),
                position: .before(codec))
        } catch {
            context.close(promise: nil)
            return
        }
        // Without the encoder where it is expected, there is no fast path: every request goes to the router.
        guard let fastPath, let encoder = try? pipeline.handler(type: HTTPResponseEncoder.self) else { return }
        do {
            try pipeline.addHandler(
                ReadFastPathHandler(fastPath, serverName: serverName, owed: owed), position: .before(encoder))
        } catch {
            // The router answers every request.
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// How many requests a connection has handed to the router whose answers have not all been written.
final class RouterAnswersOwed {
    var count = 0
}

/// Counts the router's answers down as their ends are written (the requests were counted up as they were handed on).
final class RouterAnswerCount: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let owed: RouterAnswersOwed

    init(_ owed: RouterAnswersOwed) {
        self.owed = owed
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), owed.count > 0 { owed.count -= 1 }
        context.write(data, promise: promise)
    }
}

/// The fast path at the front of each connection's pipeline, where the bytes arrive, before NIO's HTTP/1 codec.
///
/// It reads each request's head itself (``RequestHead``). One it answers never reaches the codec, and its answer
/// leaves as bytes: what NIO's encoder would have written of the router's answer. Every other request is handed to
/// the codec whole, head and all, exactly as it came; a head ``RequestHead`` does not accept, and everything after
/// it, goes to the codec unread, and so does every byte of the connection after that. So the codec sees whole
/// requests, or everything from some point on, and frames them as it always did.
///
/// Answers leave in the order requests came: while the router owes an answer, every request goes to the router
/// too. While the socket cannot take more, requests go to the router as well, whose writes wait for the client,
/// so a client that sends without reading gets no more than the socket's buffer ahead of it. The head of a kept
/// representation's answer is kept for as long as the representation, its freshness and the `Date` second stay the
/// same, which for a client revalidating one record in a loop is every request of that second.
final class ReadFastPathHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = IOData

    private let fastPath: ReadFastPath
    private let serverName: String
    private let owed: RouterAnswersOwed

    /// The start of a head whose end has not arrived yet, and how many of its bytes were searched for that end.
    private var partial: (bytes: ByteBuffer, searched: Int)?
    /// Set at the first head the fast path does not read: from then on every byte goes to the codec.
    private var passingAll = false
    /// The last kept answer's head, and what it was made from.
    private var encoded: EncodedAnswer?
    /// The `Host` this connection's last admitted request came with.
    private var admittedHost: String?
    private var needsFlush = false
    private var date: (second: Int, text: String) = (-1, "")

    init(_ fastPath: ReadFastPath, serverName: String, owed: RouterAnswersOwed) {
        self.fastPath = fastPath
        self.serverName = serverName
        self.owed = owed
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoded = nil
        partial = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !passingAll else {
            context.fireChannelRead(data)
            return
        }
        var bytes = unwrapInboundIn(data)
        var searched = 0
        if var partial {
            self.partial = nil
            partial.bytes.writeBuffer(&bytes)
            (bytes, searched) = partial
        }
        while bytes.readableBytes > 0 {
            guard let end = bytes.withUnsafeReadableBytes({ RequestHead.end(in: $0, from: searched) }) else {
                // A head whose lines end in bare LFs has no CRLF CRLF to wait for: it is the codec's.
                if bytes.readableBytes > RequestHead.maxLength
                    || bytes.withUnsafeReadableBytes({ RequestHead.hasBareLineFeed(in: $0, from: searched) })
                {
                    passAll(bytes, context: context)
                } else {
                    partial = (bytes, bytes.readableBytes)
                }
                return
            }
            searched = 0
            let head = bytes.withUnsafeReadableBytes { RequestHead(UnsafeRawBufferPointer(rebasing: $0[..<end])) }
            guard let head, let request = bytes.readSlice(length: end) else {
                passAll(bytes, context: context)
                return
            }
            if owed.count == 0, context.channel.isWritable,
                let (route, answer) = fastPath.answer(head, admitted: &admittedHost),
                let status = send(answer, context: context)
            {
                fastPath.counters.count(route: route, status: status)
                fastPath.tally.add()
            } else {
                owed.count += 1
                context.fireChannelRead(wrapInboundOut(request))
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client sent all it will: the start of a head it never finished is the codec's to judge.
        if let inputClosed = event as? ChannelEvent, inputClosed == .inputClosed, let partial {
            passAll(partial.bytes, context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Hands `bytes` and every byte after them to the codec.
    private func passAll(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        passingAll = true
        partial = nil
        encoded = nil
        context.fireChannelRead(wrapInboundOut(bytes))
    }

    /// Writes the answer as NIO's encoder would write the router's: the status line, the answer's headers,
    /// `Content-Length` for a body, `Date` and `Server`, then the body. The flush comes when the read that brought
    /// the request is done, so pipelined requests leave in one write.
    ///
    /// - Returns: The status sent, or `nil` for an answer this does not frame (a body-less 200, which no memory
    ///   answer is): the router then answers the request instead.
    private func send(_ memoryAnswer: MemoryAnswer, context: ChannelHandlerContext) -> Int? {
        let date = currentDate()
        let head: EncodedHead
        let body: ByteBuffer?
        switch memoryAnswer {
        case .kept(let kept):
            let key = EncodedAnswer.Key(kept, second: date.second)
            if let encoded, encoded.key == key {
                head = encoded.head
            } else {
                guard let made = encode(kept.answer, date: date.text, allocator: context.channel.allocator) else {
                    return nil
                }
                head = made
                // Kept only while the key names its representation's body by address.
                encoded =
                    key.bodyAddress == nil
                    ? nil : EncodedAnswer(key: key, representationBody: kept.representation.body, head: head)
            }
            body = kept.notModified ? nil : kept.representation.body
        case .made(let answer):
            guard let made = encode(answer, date: date.text, allocator: context.channel.allocator) else { return nil }
            head = made
            body = answer.body
        }
        needsFlush = true
        context.write(wrapOutboundOut(.byteBuffer(head.bytes)), promise: nil)
        if head.hasBody, let body { context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil) }
        return head.status
    }

    /// The answer's head as NIO's HTTP/1 encoder writes the response Hummingbird makes of it: the status line, the
    /// answer's headers, `Content-Length` for a body, `Date`, `Server`; a status that has no body (a 304) has no
    /// `Content-Length` either.
    private func encode(_ answer: Answer, date: String, allocator: ByteBufferAllocator) -> EncodedHead? {
        let status = HTTPResponseStatus(statusCode: answer.status.code, reasonPhrase: answer.status.reasonPhrase)
        var headers = answer.headers
        let hasBody = status.mayHaveResponseBody
        if hasBody {
            guard let body = answer.body else { return nil }
            headers[.contentLength] = String(body.readableBytes)
        } else {
            headers[.contentLength] = nil
            headers[.transferEncoding] = nil
        }
        headers[.date] = date
        headers[.server] = serverName
        var bytes = allocator.buffer(capacity: 256)
        bytes.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for field in headers {
            bytes.writeString(field.name.rawName)
            bytes.writeStaticString(": ")
            bytes.writeString(field.value)
            bytes.writeStaticString("\r\n")
        }
        bytes.writeStaticString("\r\n")
        return EncodedHead(bytes: bytes, status: Int(status.code), hasBody: hasBody)
    }

    /// The `Date` header, formatted once a second.
    private func currentDate() -> (second: Int, text: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = now.tv_sec
        if second != date.second { date = (second, HTTPDate.format(seconds: Double(second))) }
        return date
    }
}

/// An answer's status line and headers as bytes.
private struct EncodedHead {
    var bytes: ByteBuffer
    var status: Int
    /// Whether the status carries a body (a 304 does not).
    var hasBody: Bool
}

/// A kept representation's answer head, with what it was made from.
private struct EncodedAnswer {
    /// What the head depends on. The body's storage stands for the representation: `EncodedAnswer` holds the body,
    /// so no other buffer can be at that address while the key is compared.
    struct Key: Equatable {
        var bodyAddress: UInt?
        var bodyCount: Int
        var etag: String
        var contentRange: String?
        var freshness: SyncCache.Freshness
        var notModified: Bool
        var second: Int

        init(_ kept: KeptAnswer, second: Int) {
            let body = kept.representation.body
            bodyCount = body.readableBytes
            bodyAddress = bodyCount == 0 ? nil : body.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
            etag = kept.representation.etag
            contentRange = kept.representation.contentRange
            freshness = kept.freshness
            notModified = kept.notModified
            self.second = second
        }
    }

    var key: Key
    var representationBody: ByteBuffer
    var head: EncodedHead
}
