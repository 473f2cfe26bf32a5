internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1
internal import Synchronization

extension HTTPTransport {
    /// Reads a response's body, counted against `max_body` as it streams in, by `deadline` (the request's start plus
    /// its `timeout`); `length` is the announced `Content-Length`, if any.
    ///
    /// AsyncHTTPClient's deadline ends with the response head: a body dripped a byte at a time would otherwise hold
    /// the run for as long as the upstream likes. The body is read in a task of its own, which a timer on one of
    /// AsyncHTTPClient's event loops cancels at the deadline. (A task group racing a sleeping child did the same at
    /// about 0.1 ms more a body: a tenth of a paged sync of 1,000 small pages.) That task runs on `executor`, the event
    /// loop the run is on, where the chunks arrive: on Swift's pool, each chunk woke a pool thread (a paged sync of
    /// 1,000 pages took 0.91–0.92 s against 0.82–0.88 s, medians of 5 in two rounds).
    ///
    /// - Returns: The body, or an empty buffer when `streaming` took the chunks.
    /// - Throws: ``FetchError`` `timeout` past the deadline, `bodyTooLarge` past `max_body`; the handler's error
    ///   wrapped in ``HandlerFailure`` (a ``BodyDecodingError`` naming a media type other than JSON's);
    ///   AsyncHTTPClient's error when the body is cut off.
    static func readBody(
        _ response: HTTPClientResponse, length: Int?, request: FetchRequest, deadline: ContinuousClock.Instant,
        streaming: BodyChunkHandler?, executor: (any TaskExecutor)?
    ) async throws -> ByteBuffer {
        let sink = ChunkSink(handler: streaming)
        let contentType = response.headers.first(name: "Content-Type")
        let reader = Task(executorPreference: executor) {
            try await collect(response.body, length: length, contentType: contentType, request: request, sink: sink)
        }
        let expiry = Expiry()
        let remaining = ContinuousClock.now.duration(to: deadline)
        let timer = HTTPClient.defaultEventLoopGroup.any().scheduleTask(in: TimeAmount(remaining)) {
            expiry.expire()
            reader.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await reader.value
            } onCancel: {
                reader.cancel()
            }
        } catch  where expiry.hasExpired {
            throw FetchError.timeout("no complete response within \(DurationText.format(request.timeout))")
        }
    }

    private static func collect(
        _ chunks: HTTPClientResponse.Body, length: Int?, contentType: String?, request: FetchRequest,
        sink: ChunkSink
    ) async throws -> ByteBuffer {
        var body = ByteBuffer()
        // Collected: one allocation of the announced size instead of doubling, up to the default max_body: a larger
        // announcement is not trusted before its bytes arrive. (A compressed body announces its compressed size; the
        // buffer grows past it as needed.)
        if sink.handler == nil, let length, length > 0 {
            body.reserveCapacity(min(length, EndpointConfiguration.defaultMaxBody))
        }
        var received = 0
        for try await chunk in chunks {
            received += chunk.readableBytes
            guard received <= request.maxBody else { throw FetchError.bodyTooLarge(limit: request.maxBody) }
            if let handler = sink.handler {
                do {
                    try handler(chunk)
                } catch let error as BodyDecodingError {
                    throw HandlerFailure(error: error.naming(contentType: contentType))
                } catch {
                    throw HandlerFailure(error: error)
                }
            } else {
                var chunk = chunk
                body.writeBuffer(&chunk)
            }
        }
        return body
    }
}

/// The body handler, carried into the child task that reads the body. Unchecked because the handler is not
/// `Sendable`, which holds here: only that child task calls it, while the task that owns it waits for the child.
private struct ChunkSink: @unchecked Sendable {
    var handler: BodyChunkHandler?
}

/// Whether a body's deadline passed: set by the timer, read by the task that awaits the body.
private final class Expiry: Sendable {
    private let expired = Atomic<Bool>(false)

    func expire() {
        expired.store(true, ordering: .releasing)
    }

    var hasExpired: Bool { expired.load(ordering: .acquiring) }
}

/// An error of the body handler, carried through unchanged.
struct HandlerFailure: Error {
    var error: any Error
}
