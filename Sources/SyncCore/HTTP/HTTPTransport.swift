internal import AsyncHTTPClient
internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression
internal import NIOSSL
internal import Synchronization

/// HTTP and HTTPS over one shared AsyncHTTPClient: pooled connections, verified TLS, bounded redirects that keep
/// secrets to their origin (``RedirectFollower``), gzip.
///
/// The owner calls ``shutdown()`` once it is done with it.
package final class HTTPTransport: Transport {
    /// The `User-Agent` sent with every request.
    package static let userAgent = "syncd/\(SyncdVersion.current)"

    private let client: HTTPClient
    /// One executor per event loop of the client's group, for ``nextRunExecutor()``.
    private let runExecutors: [EventLoopTaskExecutor]
    private let nextExecutor = Mutex<Int>(0)

    package init() {
        var configuration = HTTPClient.Configuration(
            // The default TLS configuration verifies certificates and host names against the system's trust roots.
            // Redirects are followed by RedirectFollower, which keeps credentials and configured headers to their origin.
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10)),
            // Bodies are counted against max_body as they stream in, after decompression.
            decompression: .enabled(limit: .none)
        )
        configuration.httpVersion = .automatic
        // syncd retries itself (retries within a run, then the scheduler's backoff), so a refused connection or a
        // failed TLS handshake must fail the attempt at once, not be retried until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        let group = HTTPClient.defaultEventLoopGroup
        self.client = HTTPClient(eventLoopGroup: group, configuration: configuration)
        self.runExecutors = group.makeIterator().map(EventLoopTaskExecutor.init)
    }

    package func nextRunExecutor() -> (any TaskExecutor)? {
        guard !runExecutors.isEmpty else { return nil }
        let turn = nextExecutor.withLock { turn in
            defer { turn = (turn + 1) % runExecutors.count }
            return turn
        }
        return runExecutors[turn]
    }

    /// The executor of the event loop this code runs on, when it runs on one of the client's.
    private func currentRunExecutor() -> (any TaskExecutor)? {
        runExecutors.first { $0.runsHere }
    }

    /// Closes the pooled connections.
    package func shutdown() async throws {
        try await client.shutdown()
    }

    /// A transport its owner dropped without ``shutdown()`` — an embedder's `SyncCache` that went out of scope, one
    /// whose opening failed half-way — closes its connections on its own: AsyncHTTPClient would otherwise trap in a
    /// debug build and leak in a release build. The shutdown keeps the client alive until it is done; a client
    /// already shut down refuses a second one, which is ignored.
    deinit {
        _ = client.shutdown()
    }

    package func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse {
        let deadline = NIODeadline.now() + TimeAmount(request.timeout)
        let bodyDeadline = ContinuousClock.now + request.timeout
        var redirects = RedirectFollower(request)
        do {
            var response = try await client.execute(Self.outgoing(request), deadline: deadline)
            redirecting: while true {
                let status = Int(response.status.code)
                switch redirects.next(status: status, location: response.headers.first(name: "Location")) {
                case .final:
                    break redirecting
                case .follow(let next):
                    try await Self.discard(
                        response, request: request, deadline: bodyDeadline, executor: currentRunExecutor())
                    response = try await client.execute(Self.outgoing(next), deadline: deadline)
                case .failure(let error):
                    throw error
                }
            }
            let status = Int(response.status.code)
            var body = ByteBuffer()
            if status != 304 {
                let streaming = (200..<300).contains(status) ? successBody : nil
                // A collected body is one ByteBuffer, whose capacity is a UInt32: never more than max_body's bound.
                var limited = request
                if streaming == nil { limited.maxBody = min(request.maxBody, ConfigurationBounds.maxBody.upperBound) }
                let length = response.headers.first(name: "Content-Length").flatMap(Int.init)
                if let length, length > limited.maxBody {
                    throw FetchError.bodyTooLarge(limit: limited.maxBody)
                }
                body = try await Self.readBody(
                    response, length: length, request: limited, deadline: bodyDeadline, streaming: streaming,
                    executor: currentRunExecutor())
            }
            var fetched = FetchResponse(
                status: status,
                etag: response.headers.first(name: "ETag"),
                lastModified: response.headers.first(name: "Last-Modified"),
                contentType: response.headers.first(name: "Content-Type"),
                retryAfter: response.headers.first(name: "Retry-After"),
                links: response.headers["Link"],
                rateLimit: RateLimitHeaders(headers: response.headers),
                body: body
            )
            fetched.headers = response.headers.map { (name: $0.name, value: $0.value) }
            return fetched
        } catch let failure as HandlerFailure {
            throw failure.error
        } catch let error as FetchError {
            throw error
        } catch {
            throw Self.fetchError(error, request: request)
        }
    }

    /// The request as AsyncHTTPClient takes it: syncd's own headers, then the request's.
    private static func outgoing(_ request: FetchRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        outgoing.headers.add(name: "User-Agent", value: Self.userAgent)
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for header in request.headers {
            outgoing.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        if let etag = request.etag { outgoing.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let lastModified = request.lastModified {
            outgoing.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
        }
        return outgoing
    }

    /// Reads and drops a redirect's body, up to 64 KiB and by the request's deadline; a longer one is left unread
    /// (its connection is closed), a slower one times the request out.
    private static func discard(
        _ response: HTTPClientResponse, request: FetchRequest, deadline: ContinuousClock.Instant,
        executor: (any TaskExecutor)?
    ) async throws {
        var limited = request
        limited.maxBody = 64 << 10
        do {
            _ = try await readBody(
                response, length: nil, request: limited, deadline: deadline, streaming: nil, executor: executor)
        } catch let error as FetchError where error == .bodyTooLarge {
            return
        }
    }

    /// One sentence per kind of failure; never the URL, which may hold a secret query parameter.
    private static func fetchError(_ error: any Error, request: FetchRequest) -> FetchError {
        guard let error = error as? HTTPClientError else {
            if error is CancellationError { return .timeout("the request was cancelled") }
            if let parserError = error as? HTTPParserError {
                if case .invalidEOFState = parserError {
                    return .truncated("the connection closed before the whole body arrived")
                }
                return .connection("the upstream's answer is not valid HTTP")
            }
            if let tlsError = error as? NIOSSLError {
                switch tlsError {
                case .handshakeFailed, .unableToValidateCertificate:
                    return .tls(
                        "the TLS handshake failed: the server's certificate is not trusted or not for this host")
                default:
                    return .tls("the TLS connection failed")
                }
            }
            if let channelError = error as? ChannelError, case .connectTimeout = channelError {
                return .timeout("connecting timed out")
            }
            return .connection("the connection failed: \(Self.describe(error))")
        }
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timeout("no complete response within \(DurationText.format(request.timeout))")
        case .connectTimeout:
            return .timeout("connecting timed out")
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return .truncated("the connection closed before the whole body arrived")
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL("the URL is not a valid http or https URL")
        default:
            return .connection("the request failed: \(error.shortDescription)")
        }
    }

    private static func describe(_ error: any Error) -> String {
        // The system's own words for the errno ("Connection refused"), not NIO's nested description.
        if let ioError = error as? IOError { return String(cString: strerror(ioError.errnoCode)) }
        return String(describing: type(of: error))
    }
}
