internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1
import SyncDecoding
import SyncModel

/// One response of AsyncHTTPClient's delegate API, received on the event loop the run is on: its head, and its body
/// streamed to the run's handler (a 2xx, when the run gave one) or collected, counted against its limit as it arrives.
///
/// The delegate API, not `execute(_:deadline:)`'s async one: for each request that one starts a task on Swift's pool
/// (to register the request with an actor that can cancel it), and the body was read through an async sequence in a
/// task of its own with a timer for its deadline, so each request woke a pool thread and each chunk crossed into a
/// task. A sync of 1,000 pages of one record each took 301 ms against 341 ms (medians of 5, alternately), 1,000 pages
/// of 100 users 0.81 s of CPU against 0.85 s and half the context switches (2,500 against 4,400; means of 9).
///
/// Its state is the event loop's alone: AsyncHTTPClient calls it there, one call at a time, and the task that
/// awaits the answer gets the head and body only once the request has ended.
final class FetchDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    /// The head, and the body when it was collected.
    struct Answer: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
    }

    /// A redirect's body longer than ``redirectBodyLimit``, which is not read: the request ends there and the
    /// redirect, whose head this is, is followed (its connection is closed).
    struct RedirectBodyLeftUnread: Error {
        var head: HTTPResponseHead
    }

    /// The most of a redirect's body that is read (and dropped) before it is followed.
    static let redirectBodyLimit = 64 << 10

    /// What happens to the body's bytes.
    private enum Handling {
        /// To the run's handler, at most `limit` bytes in all.
        case stream(limit: Int)
        /// Into ``body``, at most `limit` bytes.
        case collect(limit: Int)
        /// Read and dropped, at most ``redirectBodyLimit`` bytes.
        case redirect
        /// Dropped (a 304's, which has none).
        case drop
    }

    private let request: FetchRequest
    private let streaming: BodyChunkHandler?
    private var head: HTTPResponseHead?
    private var handling = Handling.drop
    private var body = ByteBuffer()
    private var received = 0

    /// - Parameter streaming: what takes a 2xx body's chunks; without it, every body is collected.
    init(request: FetchRequest, streaming: BodyChunkHandler?) {
        self.request = request
        self.streaming = streaming
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        let status = Int(head.status.code)
        if RedirectFollower.redirectStatuses.contains(status), head.headers.contains(name: "Location") {
            handling = .redirect
            return task.eventLoop.makeSucceededVoidFuture()
        }
        if status == 304 {
            handling = .drop
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let length = head.headers.first(name: "Content-Length").flatMap(Int.init)
        let limit: Int
        if (200..<300).contains(status), streaming != nil {
            limit = request.maxBody
            handling = .stream(limit: limit)
        } else {
            // A collected body is one ByteBuffer, whose capacity is a UInt32: never more than max_body's bound.
            limit = min(request.maxBody, ConfigurationBounds.maxBody.upperBound)
            handling = .collect(limit: limit)
            // One allocation of the announced size instead of doubling, up to the default max_body: a larger
            // announcement is not trusted before its bytes arrive. (A compressed body announces its compressed size;
            // the buffer grows past it as needed.)
            if let length, length > 0 { body.reserveCapacity(min(length, limit, EndpointConfiguration.defaultMaxBody)) }
        }
        if let length, length > limit {
            return task.eventLoop.makeFailedFuture(FetchError.bodyTooLarge(limit: limit))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (total, overflow) = received.addingReportingOverflow(buffer.readableBytes)
        received = overflow ? Int.max : total
        do {
            switch handling {
            case .stream(let limit):
                guard received <= limit else { throw FetchError.bodyTooLarge(limit: limit) }
                do {
                    try streaming?(buffer)
                } catch let error as BodyDecodingError {
                    throw HandlerFailure(error: error.naming(contentType: head?.headers.first(name: "Content-Type")))
                } catch {
                    throw HandlerFailure(error: error)
                }
            case .collect(let limit):
                guard received <= limit else { throw FetchError.bodyTooLarge(limit: limit) }
                var buffer = buffer
                body.writeBuffer(&buffer)
            case .redirect:
                if received > Self.redirectBodyLimit, let head { throw RedirectBodyLeftUnread(head: head) }
            case .drop:
                break
            }
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        guard let head else { throw FetchError.connection("the upstream's answer is not valid HTTP") }
        return Answer(head: head, body: body)
    }
}

/// An error of the body handler, carried through unchanged.
struct HandlerFailure: Error {
    var error: any Error
}
