internal import HTTPTypes
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypes
internal import NIOHTTPTypesHTTP1
internal import SyncCore
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The read API's hot requests answered on the event loop: a `GET` of one record or of a list whose answer is
/// already in memory (``ReadModel``'s kept representations, or a list's revalidation), while nothing committed since.
///
/// Hummingbird hands every request to a Swift task and its answer back to the event loop; for an answer that is
/// only a dictionary lookup, those two hops are most of the cost. Everything else, and anything unusual about a
/// request (another method, `HEAD`, a `Connection` or `Expect` header, a Host or token the middleware would
/// refuse, a path in any but the routes' plain form), goes on to the router, which answers it as it always did.
/// What the fast path sends is the router's own answer for that request (``KeptAnswer`` and
/// ``ReadModel/recordsFromMemory(_:_:_:query:request:)`` build both), with the same `Date` and `Server`, and it is
/// counted in `syncd_http_requests_total` under the same route.
package struct ReadFastPath: Sendable {
    let model: ReadModel
    let counters: RequestCounters
    /// The bearer token every request must carry, when one is configured.
    let token: [UInt8]?
    /// The `Host` values a token-less TCP listen admits.
    let allowedHosts: AllowedHosts?
    let tally: FastPathTally

    /// The route label and the answer, or `nil` to leave the request to the router.
    ///
    /// - Parameter admitted: The last `Host` the connection's requests were admitted with: once the port is bound,
    ///   whether a `Host` is admitted depends on nothing else, so the next request with the same one skips the check.
    func answer(_ head: HTTPRequestHead, admitted: inout String?) -> (route: String, answer: MemoryAnswer)? {
        guard head.method == .GET, let request = Request(head) else { return nil }
        if let token {
            guard let header = request.fields[.authorization], BearerToken.matches(header, token: token)
            else { return nil }
        }
        if let allowedHosts, let authority = request.authority, authority != admitted {
            guard allowedHosts.admits(authority) else { return nil }
            admitted = authority
        }
        guard let route = Route(head.uri) else { return nil }
        guard let (endpoint, served, snapshot) = model.syncedInMemory(route.name) else { return nil }
        switch route.kind {
        case .record(let id):
            return model.recordFromMemory(endpoint, served, snapshot, id: id, request: request.fields).map {
                (Route.recordLabel, $0)
            }
        case .records(let query, let label):
            return model.recordsFromMemory(endpoint, served, snapshot, query: query, request: request.fields).map {
                (label, $0)
            }
        }
    }

    /// What the fast path reads of a request's headers, as the HTTP codec would have made it: the first `Host` as
    /// the authority, and the fields the answer depends on (`Authorization`, `If-None-Match`, `If-Modified-Since`,
    /// `Prefer`), each value made an `HTTPField` as the codec makes it. The other fields are not converted at all.
    struct Request {
        var authority: String?
        var fields = HTTPFields()

        /// `nil` for a request the router must see: one with a `Connection` or `Expect` header, or a second `Host`.
        init?(_ head: HTTPRequestHead) {
            for (name, value) in head.headers {
                switch KnownField(name) {
                case .connection, .expect: return nil
                case .host:
                    guard authority == nil else { return nil }
                    authority = value
                case .kept(let known): fields.append(HTTPField(name: known, value: value))
                case nil: continue
                }
            }
        }
    }

    /// The request fields the fast path looks at, matched without allocating (ASCII, any case).
    enum KnownField {
        case connection, expect, host
        case kept(HTTPField.Name)

        init?(_ name: String) {
            switch name.utf8.count {
            case 4 where Self.matches(name, "host"): self = .host
            case 6 where Self.matches(name, "expect"): self = .expect
            case 6 where Self.matches(name, "prefer"): self = .kept(CacheHeaders.prefer)
            case 10 where Self.matches(name, "connection"): self = .connection
            case 13 where Self.matches(name, "authorization"): self = .kept(.authorization)
            case 13 where Self.matches(name, "if-none-match"): self = .kept(.ifNoneMatch)
            case 17 where Self.matches(name, "if-modified-since"): self = .kept(.ifModifiedSince)
            default: return nil
            }
        }

        /// Whether `name` is `lowercase` in any ASCII case; the lengths are equal.
        private static func matches(_ name: String, _ lowercase: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            return zip(name.utf8, expected).allSatisfy { byte, wanted in
                byte == wanted || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == wanted)
            }
        }
    }

    /// One of the routes the fast path takes, from a request target in its plain form: `/v1/endpoints/NAME/records`,
    /// `/v1/endpoints/NAME/records/ID` or `/rest/NAME`, each segment non-empty, with or without `?query`.
    package struct Route: Equatable {
        package enum Kind: Equatable {
            case record(id: String)
            case records(query: String, label: String)
        }

        static let recordLabel = "/v1/endpoints/{name}/records/{id}"
        static let recordsLabel = "/v1/endpoints/{name}/records"
        static let restLabel = "/rest/{name}"

        package var name: String
        package var kind: Kind

        package init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }

        package init?(_ target: String) {
            let utf8 = target.utf8
            // ASCII only, so that characters and bytes count alike (a target is ASCII on the wire; anything else is
            // the router's to judge).
            guard utf8.first == UInt8(ascii: "/"), utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "#") })
            else { return nil }
            let mark = utf8.firstIndex(of: UInt8(ascii: "?"))
            let path = target[..<(mark ?? target.endIndex)]
            let query = mark.map { String(target[target.utf8.index(after: $0)...]) } ?? ""
            // The router's parameters are the raw segments, percent-decoded by the routes.
            func decoded(_ segment: Substring) -> String? {
                guard !segment.isEmpty, !segment.utf8.contains(UInt8(ascii: "/")) else { return nil }
                return segment.utf8.contains(UInt8(ascii: "%"))
                    ? QueryString.decode(segment, plusIsSpace: false) : String(segment)
            }
            if let rest = Self.after("/v1/endpoints/", in: path) {
                guard let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")), let name = decoded(rest[..<slash])
                else { return nil }
                let tail = rest[slash...]
                self.name = name
                if tail.utf8.elementsEqual("/records".utf8) {
                    kind = .records(query: query, label: Self.recordsLabel)
                } else if let id = Self.after("/records/", in: tail).flatMap(decoded) {
                    kind = .record(id: id)
                } else {
                    return nil
                }
            } else if let name = Self.after("/rest/", in: path).flatMap(decoded) {
                self.name = name
                kind = .records(query: query, label: Self.restLabel)
            } else {
                return nil
            }
        }

        /// `text` after `prefix`, compared byte for byte (a character comparison costs more than the rest of a
        /// route's parsing); `nil` when it does not start with it.
        private static func after(_ prefix: StaticString, in text: Substring) -> Substring? {
            let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            guard text.utf8.starts(with: bytes) else { return nil }
            return text[text.utf8.index(text.startIndex, offsetBy: bytes.count)...]
        }
    }
}

/// Puts a ``ReadFastPathHandler`` in a connection's pipeline just before the HTTP codec (Hummingbird adds its extra
/// handlers after it), and leaves the pipeline once the connection is active.
final class ReadFastPathInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    private let fastPath: ReadFastPath
    private let serverName: String

    init(_ fastPath: ReadFastPath, serverName: String) {
        self.fastPath = fastPath
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        // Without the codec where it is expected, there is no fast path: every request goes to the router.
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        try? pipeline.addHandler(ReadFastPathHandler(fastPath, serverName: serverName), position: .before(codec))
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// The fast path in each connection's pipeline, between NIO's HTTP/1 decoder and the codec that makes HTTP types of
/// its parts for Hummingbird.
///
/// Answers leave in the order requests came: while the router owes an answer, every request goes to the router
/// too. While the socket cannot take more, requests go to the router as well, whose writes wait for the client,
/// so a client that sends without reading gets no more than the socket's buffer ahead of it.
///
/// A request it answers is never converted to HTTP types (only the few fields the answer depends on are), and its
/// answer goes to NIO's HTTP/1 encoder as a head, which is what the codec would have made of it: the head of a
/// kept representation's answer is kept for as long as the representation, its freshness and the `Date` second stay
/// the same, which for a client revalidating one record in a loop is every request of that second.
final class ReadFastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let fastPath: ReadFastPath
    private let serverName: String

    /// The request being read: answered here once its end arrives, or passed on.
    private enum Request {
        case none
        case answering(route: String, answer: MemoryAnswer)
        case passedOn
    }
    /// The last kept answer's head, and what it was made from.
    private var encoded: EncodedAnswer?
    /// The `Host` this connection's last admitted request came with.
    private var admittedHost: String?
    private var request = Request.none
    /// Requests passed to the router whose answers have not all been written.
    private var routerOwes = 0
    private var needsFlush = false
    private var date: (second: Int, text: String) = (-1, "")

    init(_ fastPath: ReadFastPath, serverName: String) {
        self.fastPath = fastPath
        self.serverName = serverName
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoded = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if routerOwes == 0, context.channel.isWritable,
                let (route, answer) = fastPath.answer(head, admitted: &admittedHost)
            {
                request = .answering(route: route, answer: answer)
            } else {
                routerOwes += 1
                request = .passedOn
                context.fireChannelRead(data)
            }
        case .body:
            // A GET's body means nothing to these routes; the router drops it too.
            if case .answering = request { return }
            context.fireChannelRead(data)
        case .end:
            guard case .answering(let route, let answer) = request else {
                context.fireChannelRead(data)
                return
            }
            request = .none
            let status = send(answer, context: context)
            fastPath.counters.count(route: route, status: status)
            fastPath.tally.add()
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), routerOwes > 0 { routerOwes -= 1 }
        context.write(data, promise: promise)
    }

    /// Writes the answer as Hummingbird's responder would: its headers, `Content-Length` for a body, then `Date`
    /// and `Server`, to NIO's HTTP/1 encoder, which frames it and keeps its count of the requests it has answered (a
    /// `HEAD`'s answer has no body). The flush comes when the read that brought the request is done, so pipelined
    /// requests leave in one write.
    ///
    /// - Returns: The status sent.
    private func send(_ memoryAnswer: MemoryAnswer, context: ChannelHandlerContext) -> Int {
        needsFlush = true
        let date = currentDate()
        let head: HTTPResponseHead
        let body: ByteBuffer?
        switch memoryAnswer {
        case .kept(let kept):
            let key = EncodedAnswer.Key(kept, second: date.second)
            if let encoded, encoded.key == key {
                head = encoded.head
            } else {
                head = responseHead(kept.answer, date: date.text)
                // Kept only while the key names its representation's body by address.
                encoded =
                    key.bodyAddress == nil
                    ? nil : EncodedAnswer(key: key, representationBody: kept.representation.body, head: head)
            }
            body = kept.notModified ? nil : kept.representation.body
        case .made(let answer):
            head = responseHead(answer, date: date.text)
            body = answer.body
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        return Int(head.status.code)
    }

    /// The answer's headers, then `Content-Length` for a body, `Date` and `Server`.
    private func headers(of answer: Answer, date: String) -> HTTPFields {
        var headers = answer.headers
        if let body = answer.body { headers[.contentLength] = String(body.readableBytes) }
        headers[.date] = date
        headers[.server] = serverName
        return headers
    }

    /// The head as the HTTP codec would have made it of the answer.
    private func responseHead(_ answer: Answer, date: String) -> HTTPResponseHead {
        HTTPResponseHead(HTTPResponse(status: answer.status, headerFields: headers(of: answer, date: date)))
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

/// A kept representation's answer head, with what it was made from.
private struct EncodedAnswer {
    /// What the head depends on. The body's storage stands for the representation: `EncodedAnswer` holds the body,
    /// so no other buffer can be at that address while the key is compared.
    struct Key: Equatable {
        var bodyAddress: UInt?
        var bodyCount: Int
        var etag: String
        var contentRange: String?
        var freshness: CacheFreshness
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
    var head: HTTPResponseHead
}

/// A count of the answers the fast path sent.
package final class FastPathTally: Sendable {
    private let answered = Atomic<Int>(0)

    package init() {}

    package var count: Int { answered.load(ordering: .relaxed) }

    func add() {
        answered.add(1, ordering: .relaxed)
    }
}
