internal import HTTPTypes
internal import Hummingbird
internal import Logging
internal import NIOCore
internal import SyncCore
import SyncSupport

/// `POST /v1/hooks/{name}`: an upstream's webhook syncs the endpoint at once (``SyncCache/requestSync(_:)``).
///
/// The signature is checked over the exact bytes received, as they stream in: the body is never kept, stored or
/// logged, and a body over ``maximumHookBody`` is refused at its `Content-Length`, or once that much has come. The
/// answer, 202, is sent as soon as the body is checked; the run follows, coalesced with the others asked for.
extension ReadModel {
    /// The largest hook body read: GitHub's cap on its payloads.
    static let maximumHookBody = 25 << 20

    func hook(_ name: String, request: Request, logger: Logger) async throws(ReadAPIError) -> Response {
        // One answer for an unknown endpoint and one without a webhook: this route takes no token, and must not
        // tell a stranger which endpoints there are.
        guard let endpoint = try? endpoint(name), let webhook = endpoint.webhook else {
            throw .notFound("There is no webhook at this path.")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maximumHookBody {
            throw Self.hookTooLarge
        }
        let key: [UInt8]
        do {
            key = try webhook.secret.map { Array(try syncing.read($0).utf8) } ?? []
        } catch {
            logger.warning(
                "A webhook's secret cannot be read; the hook is refused",
                metadata: [LogKey.endpointName: "\(name)", "error": "\(error)"])
            throw .unavailable("The webhook's secret cannot be read; the daemon's log says why.")
        }
        var check: WebhookSignature.Check
        do {
            check = try WebhookSignature.read(
                webhook.signature, headers: request.headers, now: now(), tolerance: webhook.tolerance
            ).check(key: key)
        } catch {
            logger.debug(
                "A webhook was refused", metadata: [LogKey.endpointName: "\(name)", "why": "\(error.sentence)"])
            throw .forbidden(error.sentence)
        }
        // A child endpoint's hook names the parent row whose children changed: read from the body as it comes.
        let parentKey = webhook.parentKey.flatMap(SyncCache.parentKeyReader(path:))
        var received = 0
        do {
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= Self.maximumHookBody else { throw Self.hookTooLarge }
                buffer.withUnsafeReadableBytes { bytes in
                    check.update(bytes)
                    parentKey?.feed(bytes)
                }
            }
        } catch let error as ReadAPIError {
            throw error
        } catch {
            throw .badParameter("body", "The hook's body could not be read whole.")
        }
        if webhook.signature != .none, !check.matches() {
            logger.debug("A webhook was refused", metadata: [LogKey.endpointName: "\(name)", "why": "mismatch"])
            throw .forbidden(WebhookSignature.Refusal.mismatch.sentence)
        }
        guard syncing.requestSync(name, parentKey: parentKey?.key()) else {
            throw .unavailable("This syncd is not running its schedule: the hook cannot be acted on.")
        }
        logger.debug("A webhook asked for a run", metadata: [LogKey.endpointName: "\(name)"])
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .accepted, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"endpoint\":\(SyncCache.SQLValue.text(name).json)}\n"))
        )
    }

    private static var hookTooLarge: ReadAPIError {
        .tooLarge("The hook's body is larger than \(ByteCount.format(maximumHookBody)), the most a webhook is read.")
    }
}
