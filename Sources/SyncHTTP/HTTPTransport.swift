internal import AsyncHTTPClient
internal import FoundationEssentials
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression
internal import NIOSSL
import SyncSupport
internal import Synchronization
package import Tracing

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// HTTP and HTTPS over AsyncHTTPClient: pooled connections, verified TLS, bounded redirects that keep secrets to
/// their origin (``RedirectFollower``), gzip. One client per proxy and TLS settings (``HTTPClientPool``), all on
/// AsyncHTTPClient's shared event loops.
///
/// The owner calls ``shutdown()`` once it is done with it.
package final class HTTPTransport: Transport {
    /// The `User-Agent` sent with every request.
    package static let userAgent = "syncd/\(SyncdVersion.current)"

    private let clients: HTTPClientPool
    /// One executor per event loop of the client's group, for ``nextRunExecutor()``.
    private let runExecutors: [EventLoopTaskExecutor]
    private let nextExecutor = Mutex<Int>(0)

    /// - Parameters:
    ///   - environment: Where the proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …, see ``HTTPProxy``),
    ///     `$CREDENTIALS_DIRECTORY` and the `*_env` secrets of proxies and client certificates are read.
    ///   - tracer: The tracer whose spans AsyncHTTPClient makes for each request: the one bootstrapped in
    ///     `InstrumentationSystem`, unless that is the no-op one.
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        tracer: any Tracer = InstrumentationSystem.tracer
    ) {
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
        configuration.tracing.tracer = Self.clientTracer(tracer)
        let group = HTTPClient.defaultEventLoopGroup
        self.clients = HTTPClientPool(configuration: configuration, group: group, environment: environment)
        self.runExecutors = group.makeIterator().map(EventLoopTaskExecutor.init)
    }

    /// What AsyncHTTPClient traces with: nothing for the no-op tracer, whose span per request, attributes and all,
    /// was a fortieth of a 304 poll's CPU; a tracer a program bootstrapped gets its spans.
    static func clientTracer(_ tracer: any Tracer) -> (any Tracer)? {
        tracer is NoOpTracer ? nil : tracer
    }

    package func nextRunExecutor() -> (any TaskExecutor)? {
        guard !runExecutors.isEmpty else { return nil }
        let turn = nextExecutor.withLock { turn in
            defer { turn = (turn + 1) % runExecutors.count }
            return turn
        }
        return runExecutors[turn]
    }

    /// Closes the pooled connections of every client.
    package func shutdown() async throws {
        try await clients.shutdown()
    }

    // A transport its owner dropped without shutdown() — an embedder's `SyncCache` that went out of scope, one whose
    // opening failed half-way — closes its connections on its own, in HTTPClientPool's deinit: AsyncHTTPClient would
    // otherwise trap in a debug build and leak in a release build. The shutdown keeps each client alive until it is
    // done; a client already shut down refuses a second one, which is ignored.

    package func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse {
        // The whole request, body included: a body dripped a byte at a time cannot hold the run past it.
        let deadline = NIODeadline.now() + TimeAmount(request.timeout)
        var redirects = RedirectFollower(request)
        var current = request
        do {
            while true {
                try Task.checkCancellation()
                let delegate = FetchDelegate(request: current, streaming: successBody)
                let answer: FetchDelegate.Answer
                do {
                    answer = try await execute(current, delegate: delegate, deadline: deadline)
                } catch let unread as FetchDelegate.RedirectBodyLeftUnread {
                    answer = FetchDelegate.Answer(head: unread.head, body: ByteBuffer())
                }
                let headers = answer.head.headers
                let status = Int(answer.head.status.code)
                switch redirects.next(status: status, location: headers.first(name: "Location")) {
                case .final:
                    var fetched = FetchResponse(
                        status: status,
                        etag: headers.first(name: "ETag"),
                        lastModified: headers.first(name: "Last-Modified"),
                        contentType: headers.first(name: "Content-Type"),
                        retryAfter: headers.first(name: "Retry-After"),
                        links: headers["Link"],
                        rateLimit: RateLimitHeaders(headers: headers),
                        body: answer.body
                    )
                    fetched.headers = headers.map { (name: $0.name, value: $0.value) }
                    return fetched
                case .follow(let next):
                    current = next
                case .failure(let error):
                    throw error
                }
            }
        } catch let failure as HandlerFailure {
            throw failure.error
        } catch let error as FetchError {
            throw error
        } catch {
            throw Self.fetchError(error, request: request)
        }
    }

    /// Sends `request` and receives its answer through `delegate`, on the event loop this code runs on when it is one
    /// of the client's (a run's, see ``nextRunExecutor()``).
    private func execute(_ request: FetchRequest, delegate: FetchDelegate, deadline: NIODeadline) async throws
        -> FetchDelegate.Answer
    {
        let outgoing = try HTTPClient.Request(
            url: request.url, method: HTTPMethod(rawValue: request.method), headers: Self.headers(of: request),
            body: request.body.map { .bytes($0) })
        let client = try clients.client(for: request, scheme: outgoing.scheme, host: outgoing.host)
        let loop = runExecutors.first { $0.runsHere }?.eventLoop
        let task = client.execute(
            request: outgoing, delegate: delegate, eventLoop: loop.map { .delegate(on: $0) } ?? .indifferent,
            deadline: deadline)
        return try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
    }

    /// The request's headers as sent: syncd's own, then the request's.
    private static func headers(of request: FetchRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: Self.userAgent)
        headers.add(name: "Accept", value: "application/json")
        headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for header in request.headers {
            headers.replaceOrAdd(name: header.name, value: header.value)
        }
        if let etag = request.etag { headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let lastModified = request.lastModified {
            headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
        }
        return headers
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
                return tlsFailure(tlsError)
            }
            if let alert = error as? BoringSSLError {
                // An alert read after the handshake: TLS 1.3 servers refuse a client certificate (or its absence) so.
                return isClientCertificateAlert(alert)
                    ? clientCertificateRefused : .tls("the TLS connection failed")
            }
            if let channelError = error as? ChannelError, case .connectTimeout = channelError {
                return .timeout("connecting timed out")
            }
            return .connection("the connection failed: \(Self.describe(error))")
        }
        switch error {
        case .cancelled:
            return .timeout("the request was cancelled")
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timeout("no complete response within \(DurationText.format(request.timeout))")
        case .connectTimeout:
            return .timeout("connecting timed out")
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return .truncated("the connection closed before the whole body arrived")
        case .proxyAuthenticationRequired:
            return .connection("the proxy refused its credentials (407 Proxy Authentication Required): see proxy_auth")
        case .invalidProxyResponse:
            return .connection("the proxy refused the tunnel to the upstream (its answer to CONNECT was not 2xx)")
        case .httpProxyHandshakeTimeout:
            return .timeout("the proxy did not answer CONNECT in time")
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL("the URL is not a valid http or https URL")
        default:
            return .connection("the request failed: \(error.shortDescription)")
        }
    }

    /// The TLS alerts a server sends when it refuses the client's certificate, or the lack of one.
    private static let clientCertificateAlerts = [
        "ALERT_CERTIFICATE_REQUIRED", "ALERT_BAD_CERTIFICATE", "ALERT_UNKNOWN_CA", "ALERT_CERTIFICATE_UNKNOWN",
        "ALERT_ACCESS_DENIED", "ALERT_CERTIFICATE_EXPIRED", "ALERT_UNSUPPORTED_CERTIFICATE",
    ]

    private static let clientCertificateRefused = FetchError.tls(
        "the TLS handshake failed: the server refused the connection without a client certificate it accepts")

    /// Whether `error` holds an alert by which the server refused the client's certificate, by BoringSSL's reason
    /// (`SSLV3_ALERT_…`, `TLSV1_ALERT_…`).
    private static func isClientCertificateAlert(_ error: any Error) -> Bool {
        let reason = String(describing: error)
        return clientCertificateAlerts.contains(where: reason.contains)
    }

    /// One sentence for a TLS failure: the server's certificate refused here, or the client's refused there.
    private static func tlsFailure(_ error: NIOSSLError) -> FetchError {
        if isClientCertificateAlert(error) { return clientCertificateRefused }
        switch error {
        case .handshakeFailed, .unableToValidateCertificate:
            return .tls("the TLS handshake failed: the server's certificate is not trusted or not for this host")
        default:
            return .tls("the TLS connection failed")
        }
    }

    private static func describe(_ error: any Error) -> String {
        // The system's own words for the errno ("Connection refused"), not NIO's nested description.
        if let ioError = error as? IOError { return String(cString: strerror(ioError.errnoCode)) }
        return String(describing: type(of: error))
    }
}
