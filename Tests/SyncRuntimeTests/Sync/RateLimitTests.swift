import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// `rate_limit` spaces an endpoint's requests, and the upstream's RateLimit headers slow the next ones before the
/// limit is hit; every wait goes through the injected sleep, on the injected clock, and none is really waited.
@Suite("sync: rate limits")
struct RateLimitTests {
    static func toml(_ url: String, extra: String = "") -> String {
        PaginationTests.toml(url, pagination: #"{ type = "page", param = "page", size = 1 }"#, extra: extra)
    }

    /// Serves pages 1…`pages` of one record each (then an empty one), each with `headers(page)`.
    static func serve(
        _ upstream: TestUpstream, pages: Int,
        headers: @escaping @Sendable (Int) -> [(name: String, value: String)] = { _ in [] }
    ) {
        upstream.route("/users") { request in
            let page = Int(request.query["page"] ?? "") ?? 1
            return jsonAnswer(#"{"data": \#(recordsJSON(page <= pages ? [page] : []))}"#, headers: headers(page))
        }
    }

    @Test(
        "rate_limit spaces the requests of a run on the injected clock",
        arguments: [("10/s", Duration.milliseconds(100)), ("600/m", .milliseconds(100)), ("3600/h", .seconds(1))])
    func spacing(limit: String, spacing: Duration) async throws {
        try await withTestUpstream { upstream in
            Self.serve(upstream, pages: 4)
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: "rate_limit = \"\(limit)\""))
            fixture.sleepAdvancesClock = true
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 5)
            #expect(fixture.sleeps.durations == Array(repeating: spacing, count: 4))
        }
    }

    @Test("without rate_limit or RateLimit headers nothing waits")
    func noLimits() async throws {
        try await withTestUpstream { upstream in
            Self.serve(
                upstream, pages: 4, headers: { _ in [("RateLimit-Remaining", "500"), ("RateLimit-Reset", "60")] })
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            #expect(try await fixture.sync("users").pages == 5)
            #expect(fixture.sleeps.durations.isEmpty)
        }
    }

    @Test(
        "rate_limit_scope = \"host\" shares one pace among the endpoints of a host; the default keeps them apart",
        arguments: [("host", [Duration.seconds(1)]), ("endpoint", [])])
    func hostScope(scope: String, expected: [Duration]) async throws {
        try await withTestUpstream { upstream in
            upstream.route("/a") { _ in jsonAnswer(recordsJSON([1])) }
            upstream.route("/b") { _ in jsonAnswer(recordsJSON([2])) }
            let fixture = try SyncFixture(
                toml: ["a", "b"].map { name in
                    """
                    [[endpoint]]
                    name = "\(name)"
                    url = "\(upstream.url("/\(name)"))"
                    records = "$"
                    primary_key = ["id"]
                    rate_limit = "1/s"
                    rate_limit_scope = "\(scope)"
                    [endpoint.columns]
                    id = { path = "id", type = "integer" }
                    """
                }.joined(separator: "\n"))
            let engine = fixture.engine
            #expect(await engine.sync(try fixture.endpoint("a")).outcome == .changed)
            #expect(await engine.sync(try fixture.endpoint("b")).outcome == .changed)
            #expect(fixture.sleeps.durations == expected)
        }
    }

    @Test("rate_limit_scope is endpoint or host; anything else is refused with its line")
    func scopeParsing() throws {
        let toml = """
            [[endpoint]]
            name = "a"
            url = "http://127.0.0.1:9/a"
            rate_limit_scope = "planet"
            """
        #expect {
            try SyncConfiguration.parse(toml, sourcePath: "/etc/syncd/syncd.toml")
        } throws: { error in
            "\(error)".contains("/etc/syncd/syncd.toml:4")
                && "\(error)".contains(#"rate_limit_scope must be "endpoint" or "host""#)
        }
    }

    @Test("the spacing holds across the runs of one engine")
    func acrossRuns() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { _ in jsonAnswer(#"{"data": \#(recordsJSON([1]))}"#) }
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(
                    upstream.url("/users"), pagination: #"{ type = "link" }"#, extra: #"rate_limit = "2/m""#))
            let engine = fixture.engine
            let endpoint = try fixture.endpoint("users")
            _ = await engine.sync(endpoint)
            fixture.clock.advance(by: 10)
            _ = await engine.sync(endpoint)
            #expect(fixture.sleeps.durations == [.seconds(20)])
        }
    }

    @Test("a document endpoint is paced too, by rate_limit and by its RateLimit headers")
    func documents() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/flags.json") { _ in
                jsonAnswer(#"{"on": true}"#, headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "7")])
            }
            let fixture = try SyncFixture(
                toml: """
                    [[endpoint]]
                    name = "flags"
                    url = "\(upstream.url("/flags.json"))"
                    rate_limit = "1/m"
                    """)
            let engine = fixture.engine
            let endpoint = try fixture.endpoint("flags")
            #expect(await engine.sync(endpoint).outcome == .changed)
            #expect(await engine.sync(endpoint).outcome == .unchanged)
            // The later of the two: the minute of rate_limit, not the 7 s the headers asked.
            #expect(fixture.sleeps.durations == [.seconds(60)])
        }
    }

    struct HeaderCase: Sendable, CustomTestStringConvertible {
        var headers: [(name: String, value: String)]
        var wait: Duration?
        var testDescription: String { headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ") }
    }

    @Test(
        "RateLimit headers slow the next request: none left waits for the reset, a few left spread the window",
        arguments: [
            HeaderCase(headers: [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "30")], wait: .seconds(30)),
            // The draft's reset is always seconds, however large.
            HeaderCase(headers: [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "200")], wait: .seconds(200)),
            HeaderCase(headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "20")], wait: .seconds(20)),
            // A Unix time: the clock reads 1_700_000_000.
            HeaderCase(
                headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000045")], wait: .seconds(45)),
            HeaderCase(
                headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000012000")], wait: .seconds(12)),
            // A reset beyond retry_max_delay (5m) waits retry_max_delay.
            HeaderCase(headers: [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "3600")], wait: .seconds(300)),
            // Three left over 40 s: one every 10 s, one kept in reserve.
            HeaderCase(headers: [("RateLimit-Remaining", "3"), ("RateLimit-Reset", "40")], wait: .seconds(10)),
            HeaderCase(headers: [("RateLimit-Remaining", "11"), ("RateLimit-Reset", "40")], wait: nil),
            HeaderCase(headers: [("RateLimit-Remaining", "0")], wait: nil),
        ])
    func headers(_ headerCase: HeaderCase) async throws {
        try await withTestUpstream { upstream in
            Self.serve(upstream, pages: 1, headers: { page in page == 1 ? headerCase.headers : [] })
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 2)
            #expect(fixture.sleeps.durations == (headerCase.wait.map { [$0] } ?? []))
        }
    }

    @Test("rate_limit is read as requests per second, minute or hour, and anything else is refused with its line")
    func configuration() throws {
        let text = """
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            rate_limit = "%@"
            """
        let parsed = try SyncConfiguration.parse(
            text.replacingOccurrences(of: "%@", with: "600/m"), sourcePath: "syncd.toml")
        #expect(parsed.plans.first?.rateLimit == .perMinute(600))
        for bad in ["10", "0/s", "10/d", "-1/s", "ten/s", "10/s/s", "+5/s"] {
            #expect(
                configurationProblems(text.replacingOccurrences(of: "%@", with: bad)) == [
                    #"syncd.toml:4: [[endpoint]] "flags": rate_limit must be requests per second, minute or hour, such as "10/s", "600/m" or "3600/h""#
                ], "\(bad)")
        }
    }
}
