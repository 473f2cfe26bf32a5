internal import HTTPTypes
internal import Hummingbird
internal import SyncCore
import SyncSupport

/// Read-through freshness (`[server] allow_revalidate = true`): a request whose `Cache-Control` says `max-age=N` (or
/// `no-cache`, N = 0) gets an endpoint whose copy is older than N seconds synced first, and says so in its
/// `Cache-Status`. Readers asking at once share the run the schedule makes (``SyncCache/refresh(_:olderThan:within:)``);
/// when it fails or takes too long, the stored copy is answered, stale (stale-if-error), with the reason.
extension ReadModel {
    /// The longest a request waits for the sync it asked for: under the connection's idle timeout.
    static let longestRevalidation = Duration.seconds(50)

    /// Whether requests may ask for a sync (`[server] allow_revalidate`, which a reload applies).
    var allowsRevalidate: Bool { syncing.configuration.server.allowRevalidate }

    /// Syncs `name` first when the request asks for a copy younger than the one stored, and returns the
    /// `Cache-Status` the answer then carries; nil when the request asked nothing (or may not): the answer's own.
    func revalidate(_ name: String, request: Request) async -> String? {
        guard let value = request.headers[.cacheControl], let maxAge = Self.requestMaxAge(value), allowsRevalidate,
            let endpoint = try? endpoint(name)
        else { return nil }
        let timeout = min(endpoint.timeout, Self.longestRevalidation)
        do {
            return try await syncing.refresh(name, olderThan: .seconds(maxAge), within: timeout).cacheStatus
        } catch {
            return SyncCache.Refresh.staleStatus("the sync could not be asked for: \(error)")
        }
    }

    /// The seconds a request's `Cache-Control` allows its copy to be old: its `max-age` (at most a year: a larger
    /// one asks nothing of a copy syncd keeps), or 0 for `no-cache`; nil when it says neither.
    static func requestMaxAge(_ value: String) -> Int64? {
        var found: Int64?
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        for directive in value.split(separator: ",") {
            let text = directive.drop(while: blank).reversed().drop(while: blank).reversed().map { $0 }
            let word = String(text).lowercased()
            if word == "no-cache" { return 0 }
            guard word.hasPrefix("max-age=") else { continue }
            let digits = word.dropFirst(8)
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ ("0"..."9").contains($0) }),
                let seconds = Int64(digits)
            else { return nil }
            found = min(found ?? seconds, seconds)
        }
        return found.flatMap { $0 > 31_536_000 ? nil : $0 }
    }

    /// Answers with `answer`, after syncing `name` first when the request asks for it (``revalidate(_:request:)``),
    /// whose `Cache-Status` then replaces the answer's.
    func revalidated(
        _ name: String, _ request: Request, _ answer: () async throws(ReadAPIError) -> Response
    ) async throws(ReadAPIError) -> Response {
        let status = await revalidate(name, request: request)
        var response = try await answer()
        if let status { response.headers[CacheHeaders.cacheStatus] = status }
        return response
    }
}
