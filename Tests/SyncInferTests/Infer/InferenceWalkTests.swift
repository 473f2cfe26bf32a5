import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncInfer

/// The walk `syncd infer --pages` takes over a loopback upstream: it stops where the pages end, at `--pages`, at the
/// bound on the bytes of all pages, and at a page it cannot read or that repeats the one before, saying why.
@Suite("Walking the pages of a sample")
struct InferenceWalkTests {
    /// The endpoint inferred from `path` of an upstream answered by `handler`.
    func infer(
        _ path: String, pages: Int = 3, maxSampleBytes: Int = InferenceSource.maximumSampleBytes,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        handler: @escaping @Sendable (UpstreamRequest) async -> UpstreamResponse
    ) async throws -> InferredEndpoint {
        let server = try await LoopbackHTTPServer.start(handler: handler)
        let client = APIClient()
        let inference = EndpointInference(name: "items", url: server.baseURL + path)
        let result: Result<InferredEndpoint, any Error>
        do {
            result = .success(
                try await InferenceSource.infer(
                    url: server.baseURL + path, inference, client: client, pages: pages,
                    maxSampleBytes: maxSampleBytes, now: now
                ).endpoint)
        } catch {
            result = .failure(error)
        }
        try await client.shutdown()
        try await server.shutdown()
        return try result.get()
    }

    @Test("the walk stops at --pages, saying more follow, and where the pages end")
    func pageLimit() async throws {
        let two = try await infer("/releases", pages: 2) { InferDiscogs.answer($0) }
        #expect(two.pagesRead == 2 && two.morePages && two.recordCount == 50)
        #expect(!two.withholdsRequired)
        #expect(two.stopReason == nil)
        let all = try await infer("/releases", pages: 20) { InferDiscogs.answer($0) }
        #expect(all.pagesRead == 3 && !all.morePages && all.recordCount == InferDiscogs.count)
    }

    @Test("the walk takes at most its time: a page asked for once the 120 s are up is not read, and stderr says so")
    func walkTime() async throws {
        // Each look at the clock finds 50 s gone: the walk starts at 0 s, asks page 2 at 50 s and page 3 at 100 s,
        // and finds its time up before page 4.
        let start = ContinuousClock.now
        let looks = TestClock()
        let endpoint = try await infer(
            "/v1/customers?limit=2", pages: 20,
            now: {
                let seconds = looks.now - 1_700_000_000
                looks.advance(by: 50)
                return start + .seconds(seconds)
            }
        ) { StripeList.answer($0, count: 10) }
        #expect(endpoint.pagesRead == 3 && endpoint.morePages && endpoint.recordCount == 6)
        #expect(endpoint.stopReason == "stopped at page 4: the walk took the 120 s it may take")
    }

    @Test("a Stripe list is followed by its last record's id, as starting_after, until has_more is false")
    func stripeList() async throws {
        let endpoint = try await infer("/v1/customers?limit=4", pages: 5) { StripeList.answer($0, count: 10) }
        #expect(endpoint.pagesRead == 3 && !endpoint.morePages && endpoint.recordCount == 10)
        #expect(endpoint.primaryKey == "id" && endpoint.stopReason == nil)
    }

    @Test("the bytes of all pages are bounded: the page that would pass the bound is not read")
    func sampleBound() async throws {
        let first = InferDiscogs.answer(UpstreamRequest(uri: "/releases?per_page=10")).body.count
        let endpoint = try await infer("/releases?per_page=10", maxSampleBytes: 2 * first + 100) {
            InferDiscogs.answer($0)
        }
        #expect(endpoint.pagesRead == 2 && endpoint.morePages && endpoint.recordCount == 20)
        #expect(
            endpoint.stopReason
                == "stopped at page 3: it would pass the \(2 * first + 100) bytes read over all pages at most")
    }

    @Test("a later page that fails ends the walk with what was read, naming the page; required then waits")
    func failingPage() async throws {
        let endpoint = try await infer("/releases") { request in
            request.query["page"] == "2" ? UpstreamResponse(status: 500) : InferDiscogs.answer(request)
        }
        #expect(endpoint.pagesRead == 1 && endpoint.morePages && endpoint.recordCount == 25)
        #expect(endpoint.withholdsRequired)
        #expect(
            endpoint.stopReason == "stopped at page 2: the server answered 500 Internal Server Error, not a 2xx")
    }

    @Test("a page byte-identical to the one before ends the walk, and its records are not counted twice")
    func repeatedPage() async throws {
        // The page parameter is ignored: every page is the first.
        let endpoint = try await infer("/releases") { _ in InferDiscogs.answer(UpstreamRequest(uri: "/releases")) }
        #expect(endpoint.pagesRead == 1 && endpoint.recordCount == 25 && endpoint.primaryKey == "id")
        #expect(
            endpoint.stopReason == "stopped at page 2: it is byte-identical to the page before: the pagination loops")
    }

    @Test("Crossref's cursor stays the same from page to page: followed until the empty page, not taken for a loop")
    func repeatedCursor() async throws {
        let crossref = InferCrossref()
        let endpoint = try await infer("/works?cursor=*", pages: 5) { crossref.answer($0) }
        #expect(endpoint.pagesRead == 3 && !endpoint.morePages && endpoint.recordCount == InferCrossref.count)
        #expect(endpoint.stopReason == nil)
    }
}
