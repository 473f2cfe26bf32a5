import SyncCore
import SyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The upstream `syncd demo` syncs from: ``SampleUsers`` at `/users` and a small flags document at `/flags.json`, both
/// with validators, so the demo shows full fetches, 304s and, after ``advance()``, changed data.
///
/// - `GET /users`: the users of the current generation, `ETag: "users-g<generation>"`, and a `Last-Modified` one hour
///   later for each generation. More users than ``pageSize`` are paged as GitHub pages: `/users?page=N` from 1 (the
///   bare URL is page 1), each page with a `Link` field naming the `next` and `last` pages (`prev` and `first` after
///   the first). Every page carries the collection's validators, so a client that revalidates the first page learns
///   whether any page changed.
/// - `GET /flags.json`: a fixed document with `ETag: "flags-v1"`.
/// - Both answer `If-None-Match` (`*`, lists, weak comparison) or, without it, `If-Modified-Since` with 304 and no
///   body, and `HEAD` like `GET`. Another method on them is 405; any other path is a 404 problem document.
///
/// ```swift
/// let demo = DemoUpstream()
/// let server = try await LoopbackHTTPServer.start { demo.handle($0) }
/// ```
package final class DemoUpstream: Sendable {
    /// A representation served with validators.
    private struct Resource {
        var body: [UInt8]
        var entityTag: String
        var lastModified: Int
    }

    private struct State {
        var generation = 0
        /// The users of `generation`, listed on first request.
        var listing: Listing?
    }

    /// `Last-Modified` of generation 0 and of the flags: 2026-01-01T00:00:00Z.
    private static let epoch = 1_767_225_600

    /// The flags document at `/flags.json` (also served by `sample-upstream serve`).
    package static let flags = Array(
        """
        {
          "version": 1,
          "maintenance": false,
          "features": {
            "newCheckout": true,
            "darkMode": false,
            "betaSearch": true
          },
          "rollout": {
            "newCheckout": 25,
            "betaSearch": 5
          }
        }

        """.utf8
    )

    /// How many users a page of `/users` holds unless the demo is made with another size: about 560 KB of JSON, far
    /// below `max_body`'s default, and few enough pages that `--users`' largest value, 1,000,000, fits `max_pages`'
    /// default of 1,000 pages.
    package static let defaultPageSize = 1000

    private let userCount: Int
    /// How many users a page of `/users` holds.
    package let pageSize: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - userCount: How many users `/users` serves in every generation.
    ///   - pageSize: How many users a page holds; less than 1 counts as 1.
    package init(userCount: Int = 300, pageSize: Int = DemoUpstream.defaultPageSize) {
        self.userCount = userCount
        self.pageSize = max(1, pageSize)
    }

    /// How many pages `/users` has at the current generation (at least one).
    package var pageCount: Int {
        currentListing().pageCount(size: pageSize)
    }

    /// The current generation of `/users`, 0 at first.
    package var generation: Int {
        state.withLock { $0.generation }
    }

    /// Moves `/users` to the next generation: a few changed users, one deleted, one added; a new ETag.
    package func advance() {
        state.withLock {
            $0.generation += 1
            $0.listing = nil
        }
    }

    /// Answers one request; pass it to ``LoopbackHTTPServer/start(port:handler:)``.
    package func handle(_ request: UpstreamRequest) -> UpstreamResponse {
        let resource: Resource
        var headers: [(name: String, value: String)] = []
        switch request.path {
        case "/users":
            guard let page = request.start("page", from: 1) else {
                return Self.problem(status: 400, title: "Bad Request", detail: "page must be a whole number from 1.")
            }
            let listing = currentListing()
            resource = Resource(
                body: listing.page(page, size: pageSize), entityTag: "\"users-g\(listing.generation)\"",
                lastModified: Self.epoch + listing.generation * 3600)
            if let link = Self.link(page: page, of: listing.pageCount(size: pageSize)) {
                headers.append(("Link", link))
            }
        case "/flags.json":
            resource = Resource(body: Self.flags, entityTag: #""flags-v1""#, lastModified: Self.epoch)
        default:
            return Self.problem(status: 404, title: "Not Found", detail: "There is no resource at this path.")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.problem(
                status: 405,
                title: "Method Not Allowed",
                detail: "This resource answers GET and HEAD."
            )
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let validators = [
            ("ETag", resource.entityTag),
            ("Last-Modified", HTTPDate.format(seconds: Double(resource.lastModified))),
        ]
        if Self.isNotModified(request, resource: resource) {
            return UpstreamResponse(status: 304, headers: validators + headers)
        }
        return .json(resource.body, headers: validators + headers)
    }

    private func currentListing() -> Listing {
        let (generation, cached) = state.withLock { ($0.generation, $0.listing) }
        if let cached {
            return cached
        }
        // Made outside the lock; another request may make the same listing meanwhile, which is harmless.
        let listing = Listing(count: userCount, generation: generation)
        state.withLock { state in
            if state.generation == generation {
                state.listing = listing
            }
        }
        return listing
    }

    /// RFC 9110 §13.2.2: `If-None-Match` decides when present; otherwise `If-Modified-Since`, if it is a valid date.
    private static func isNotModified(_ request: UpstreamRequest, resource: Resource) -> Bool {
        if let ifNoneMatch = request.header("If-None-Match") {
            return EntityTag.ifNoneMatch(ifNoneMatch, matches: resource.entityTag)
        }
        // Any of the three HTTP-date forms, as RFC 9110 §5.6.7 asks of a recipient; the clock only places a two-digit
        // rfc850 year.
        if let ifModifiedSince = request.header("If-Modified-Since"),
            let date = HTTPDate.parse(ifModifiedSince, now: Double(time(nil)))
        {
            return Double(resource.lastModified) <= date
        }
        return false
    }

    /// An `application/problem+json` document (RFC 9457); it never echoes the request.
    private static func problem(status: Int, title: String, detail: String) -> UpstreamResponse {
        let body = #"{"type":"about:blank","title":"\#(title)","status":\#(status),"detail":"\#(detail)"}"#
        return UpstreamResponse(
            status: status,
            headers: [("Content-Type", "application/problem+json")],
            body: Array(body.utf8)
        )
    }
}
