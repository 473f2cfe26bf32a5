internal import CoreMetrics
internal import HTTPTypes
internal import Hummingbird
internal import Logging
internal import NIOCore
internal import Synchronization

/// The outermost middleware: turns every error into an `application/problem+json` answer, and counts requests
/// by route and status (`syncd_http_requests_total`).
struct ReadAPIMiddleware<Context: RequestContext>: RouterMiddleware {
    let counters: RequestCounters

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as ReadAPIError {
            if case .unavailable(_, let cause?) = error {
                context.logger.warning(
                    "A read failed in the database", metadata: ["path": "\(request.uri.path)", "error": "\(cause)"])
            }
            response = Self.problem(error)
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound where request.method != .get && request.method != .head:
                // The router has no route for other methods: say so rather than pretend the path is unknown.
                response = Self.methodNotAllowed()
            case .notFound:
                response = Self.problem(.notFound("There is no route \(request.uri.path); see /v1/endpoints."))
            case .methodNotAllowed:
                response = Self.methodNotAllowed()
            default:
                response = Self.problem(
                    .badParameter("request", "The request is malformed."), status: error.status.code)
            }
        } catch {
            context.logger.warning(
                "A request could not be answered", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            response = Self.problem(.unavailable("The request could not be answered; the daemon's log says why."))
        }
        // Hummingbird names a request no route took "NotFound", whatever the answer (a 405 too): "unmatched".
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        counters.count(route: route, status: response.status.code)
        return response
    }

    /// 405 with `Allow: GET, HEAD`.
    static func methodNotAllowed() -> Response {
        var problem = Self.problem(.methodNotAllowed)
        problem.headers[.allow] = "GET, HEAD"
        return problem
    }

    static func problem(_ error: ReadAPIError, status: Int? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        switch error {
        case .unauthorized: headers[.wwwAuthenticate] = "Bearer realm=\"syncd\""
        // Both causes pass within moments (a queue drains, a writer's lock goes): a client may ask again at once.
        case .unavailable: headers[.retryAfter] = "1"
        default: break
        }
        return Response(
            status: HTTPResponse.Status(code: status ?? error.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: error.body)))
    }
}

/// `syncd_http_requests_total{route, status}`, one counter per pair, made once.
final class RequestCounters: Sendable {
    private struct Key: Hashable {
        var route: String
        var status: Int
    }

    private let factory: any MetricsFactory
    private let counters = Mutex<[Key: Counter]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func count(route: String, status: Int) {
        let key = Key(route: route, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "syncd_http_requests_total", dimensions: [("route", route), ("status", String(status))],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }
}

/// Requires `Authorization: Bearer <token>` when a token is configured. The comparison takes the same time
/// whatever the bytes sent, and neither the token nor what was sent is ever logged.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: ReadToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard ReadServer.isHook(request) || request.headers[.authorization].map(token.admits) == true else {
            throw ReadAPIError.unauthorized
        }
        return try await next(request, context)
    }
}

/// The check behind ``BearerTokenMiddleware`` and the read API's fast path.
enum BearerToken {
    /// Whether `header` is `Bearer <token>` (the scheme in any case), compared in constant time.
    static func matches(_ header: String, token: [UInt8]) -> Bool {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count,
            zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return false }
        return ConstantTime.equals(Array(bytes.dropFirst(scheme.count)), token)
    }
}

/// Secrets compared without telling, by the time taken, how much of a guess was right.
enum ConstantTime {
    /// Compares every byte of the longer of the two.
    static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        difference |= lhs.count == rhs.count ? 0 : 1
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
