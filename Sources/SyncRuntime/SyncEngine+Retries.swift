internal import FoundationEssentials
internal import Logging
import SyncDecoding
import SyncHTTP
import SyncModel
internal import SyncSQLite
import SyncSupport

extension SyncEngine {
    /// Runs `attempt` again after connection failures, timeouts, cut-off bodies, 5xx and 429, at most
    /// `retries` times, waiting with exponential backoff and jitter, or as long as Retry-After asks when that
    /// is longer and within `retry_max_delay` (a longer one ends the run, and the scheduler honours it).
    func retrying<T>(
        _ endpoint: EndpointConfiguration, context: String = "", _ attempt: () async throws -> T,
        response: (T) -> FetchResponse
    ) async throws -> T {
        let name = endpoint.name.name
        var failures = 0
        while true {
            let delay: Duration
            do {
                let result = try await attempt()
                let answer = response(result)
                guard answer.status == 429 || (500..<600).contains(answer.status), failures < endpoint.retries else {
                    return result
                }
                let backoff = backoff(after: failures, endpoint: endpoint)
                if let asked = retryAfter(answer) {
                    guard asked <= Self.seconds(endpoint.retryMaxDelay) else { return result }
                    delay = max(backoff, .milliseconds(clampingSeconds: asked))
                } else {
                    delay = backoff
                }
                logger.debug(
                    "Retrying", metadata: [LogKey.endpointName: "\(name)", LogKey.httpStatus: "\(answer.status)"])
            } catch let error as FetchError where error.isRetryable && failures < endpoint.retries {
                delay = backoff(after: failures, endpoint: endpoint)
                logger.debug(
                    "Retrying", metadata: [LogKey.endpointName: "\(name)", LogKey.error: "\(error.shortDescription)"])
            } catch let error as BodyDecodingError {
                throw SyncFailure(message: "\(name): \(context)\(error); kept the stored data", status: 200, bytes: 0)
            } catch let error as FetchError {
                throw SyncFailure(message: "\(name): \(context)\(error); kept the stored data", status: nil, bytes: 0)
            }
            failures += 1
            try await sleep(delay)
        }
    }

    /// Waits, through the injected sleep, until the endpoint's next request may start (``RequestPacer``).
    func waitForTurn(_ endpoint: EndpointConfiguration) async throws {
        // To the millisecond: times since 1970 as doubles carry sub-microsecond noise.
        let wait = Duration.milliseconds(
            clampingSeconds: pacer.reserve(endpoint, now: now()), rule: .toNearestOrAwayFromZero)
        guard wait > .zero else { return }
        logger.debug("Pacing requests", metadata: [LogKey.endpointName: "\(endpoint.name.name)"])
        try await sleep(wait)
    }

    /// 1 s, 2 s, 4 s… ±20%, at most `retry_max_delay`.
    func backoff(after failures: Int, endpoint: EndpointConfiguration) -> Duration {
        let base = min(Self.seconds(endpoint.retryMaxDelay), Double(1 << min(max(failures, 0), 30)))
        let jittered = base * Double.random(in: 0.8...1.2)
        return .milliseconds(clampingSeconds: min(jittered, Self.seconds(endpoint.retryMaxDelay)))
    }

    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The delay a 429 or 503 asked for, in seconds from now.
    func retryAfter(_ response: FetchResponse) -> Double? {
        guard response.status == 429 || response.status == 503, let header = response.retryAfter else { return nil }
        return RetryAfter.seconds(header, now: now())
    }
}
