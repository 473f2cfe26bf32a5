import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncServe

/// `GET /`: the status page over a real database and a real socket, and JSON for clients that ask for it.
@Suite("read API: the status page at /")
struct StatusPageTests {
    /// `users` synced twice (fresh), `broken` failing with a 500, `later` never synced.
    static func withSyncedFixture(_ body: (SyncFixture) async throws -> Void) async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#)
            upstream.set("/broken", .json(Array(#"{"error":"down"}"#.utf8), status: 500))
            let fixture = try SyncFixture(
                toml: """
                    [[endpoint]]
                    name = "users"
                    url = "\(upstream.url("/users"))"
                    records = "$"
                    primary_key = ["id"]
                    interval = "1m"
                    [endpoint.columns]
                    id = { path = "id", type = "integer" }
                    name = "name"

                    [[endpoint]]
                    name = "broken"
                    url = "\(upstream.url("/broken"))"
                    records = "$"
                    primary_key = ["id"]
                    retries = 0
                    [endpoint.columns]
                    id = { path = "id", type = "integer" }

                    [[endpoint]]
                    name = "later"
                    url = "\(upstream.url("/later"))"
                    """)
            #expect(try await fixture.sync("users").outcome == .changed)
            #expect(try await fixture.sync("users").outcome == .unchanged)
            #expect(try await fixture.sync("broken").outcome == .failed)
            try await body(fixture)
        }
    }

    @Test("every endpoint's row with its state (fresh, failing, stale), status, error and chart; no script, no asset")
    func page() async throws {
        try await Self.withSyncedFixture { fixture in
            try await ReadAPIHarness.with(fixture) { api in
                let page = try await api.get("/", headers: [("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")])
                #expect(page.status == 200)
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                #expect(page.header("Cache-Control") == "no-store")
                #expect(page.header("Vary") == "Accept")
                #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none';") == true)
                let body = page.body
                #expect(body.contains(#"data-endpoint="users" data-state="fresh""#))
                #expect(body.contains(#"data-endpoint="broken" data-state="failing""#))
                #expect(body.contains(#"data-endpoint="later" data-state="stale""#))
                #expect(body.contains(#"<span class="code c5">500</span>"#))
                #expect(body.contains("HTTP 500"), "the failing endpoint's error sentence")
                #expect(body.contains("never synced"))
                #expect(body.contains(#"<td data-label="Records" class="num">2</td>"#))
                #expect(body.contains(#"<meta http-equiv="refresh" content="10">"#))
                #expect(body.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
                #expect(body.contains(#"<svg class="chart""#))
                #expect(body.contains("users: last 2 runs"))
                #expect(body.contains(#"<span class="none">no runs yet</span>"#), "later has no runs")
                #expect(body.contains(#"<rect class="failed""#), "broken's run is drawn as failed")
                for outside in ["<script", "<link", "src=", "@import", "url(", "http://", "https://"] {
                    #expect(!body.contains(outside), "\(outside)")
                }
                let head = try await api.get("/", method: "HEAD")
                #expect(head.status == 200 && head.body.isEmpty)
                #expect(head.header("Content-Type") == "text/html; charset=utf-8")
            }
        }
    }

    @Test("an error sentence from outside is escaped: none of its markup reaches the page")
    func hostileError() async throws {
        try await Self.withSyncedFixture { fixture in
            let storage = SQLiteSyncStorage(database: fixture.database)
            let hostile = #"broken: <script>alert("x")</script> & 'more' <img src=x onerror=alert(1)>"#
            _ = try await storage.recordFailure(
                hostile, outcome: .failed, run: SyncRun(endpoint: try fixture.endpoint("broken")),
                facts: RunFacts(startedAt: fixture.clock.now, finishedAt: fixture.clock.now + 0.25, httpStatus: 502))
            try await ReadAPIHarness.with(fixture) { api in
                let body = try await api.get("/").body
                #expect(
                    body.contains(
                        "broken: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39; "
                            + "&lt;img src=x onerror=alert(1)&gt;"))
                #expect(!body.contains("<script") && !body.contains("<img"))
                #expect(body.contains("2 failures in a row"))
            }
        }
    }

    @Test("with a token: 401 problem JSON without it (for a browser too), the page with it")
    func token() async throws {
        try await Self.withSyncedFixture { fixture in
            try await ReadAPIHarness.with(fixture, token: "s3cret") { api in
                for accept in ["text/html", "application/json"] {
                    let refused = try await api.get("/", headers: [("Accept", accept)])
                    #expect(refused.status == 401)
                    #expect(refused.header("Content-Type") == "application/problem+json")
                    #expect(refused.header("WWW-Authenticate") == #"Bearer realm="syncd""#)
                    #expect(!refused.body.contains("s3cret"))
                }
                let wrong = try await api.get("/", headers: [("Authorization", "Bearer nope")])
                #expect(wrong.status == 401)
                let page = try await api.get("/", headers: [("Authorization", "Bearer s3cret")])
                #expect(page.status == 200)
                #expect(page.body.contains(#"data-endpoint="users" data-state="fresh""#))
            }
        }
    }

    @Test("Accept: application/json gets /v1/endpoints' JSON; errors stay problem JSON")
    func json() async throws {
        try await Self.withSyncedFixture { fixture in
            try await ReadAPIHarness.with(fixture) { api in
                let listed = try await api.get("/v1/endpoints")
                let json = try await api.get("/", headers: [("Accept", "application/json")])
                #expect(json.status == 200)
                #expect(json.header("Content-Type") == "application/json")
                #expect(json.header("Vary") == "Accept")
                #expect(json.body == listed.body)
                let posted = try await api.get("/", method: "POST", headers: [("Accept", "application/json")])
                #expect(posted.status == 405)
                #expect(posted.header("Content-Type") == "application/problem+json")
                let split = try await api.get("/", headers: [("Accept", "text/plain"), ("Accept", "application/json")])
                #expect(split.body == listed.body, "two Accept fields are one list")
                let plain = try await api.get("/")
                #expect(plain.header("Content-Type") == "text/html; charset=utf-8", "no Accept: the page")
            }
        }
    }

    @Test(
        "which Accept gets JSON",
        arguments: [
            (nil, false), ("*/*", false), ("text/html", false), ("application/json", true),
            ("application/problem+json", true), ("application/json, text/plain, */*", true),
            ("text/html, application/json", false), ("application/json;q=0, text/html", false),
            ("text/html;q=0, application/json", true), ("APPLICATION/JSON", true), ("text/plain", false),
        ] as [(String?, Bool)])
    func negotiation(accept: String?, json: Bool) {
        #expect(AcceptHeader.wantsJSON(accept) == json)
    }

    @Test("escaping: the five characters and control characters; numbers grouped; times for people")
    func helpers() {
        #expect(HTMLText.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLText.escape("a\u{0}b\u{1B}[31mc\u{85}") == "a\u{FFFD}b\u{FFFD}[31mc\u{FFFD}")
        #expect(HTMLText.escape("é 日本 line\nnext") == "é 日本 line\nnext")
        #expect(StatusPage.grouped(0) == "0")
        #expect(StatusPage.grouped(1234567) == "1,234,567")
        #expect(StatusPage.grouped(-1000) == "-1,000")
        #expect(StatusPage.grouped(.min) == "-9,223,372,036,854,775,808")
        #expect(StatusPage.ago(0) == "just now")
        #expect(StatusPage.ago(90) == "1m30s ago")
        #expect(StatusPage.nextPoll(48) == "in 48s")
        #expect(StatusPage.nextPoll(-30) == #"<span class="late">overdue 30s</span>"#)
        #expect(StatusPage.nextPoll(.min) == #"<span class="late">overdue a long time</span>"#)
    }

    @Test("the chart: the newest run on the right, failed runs red, no runs no chart; past 500 endpoints a pointer")
    func chart() {
        func run(_ ms: Int64, _ outcome: SyncSummary.Outcome, _ records: Int64) -> SyncCache.Run {
            SyncCache.Run(
                endpoint: "e", startedAt: "2026-01-01T00:00:00.000Z", durationMilliseconds: ms, outcome: outcome,
                records: records)
        }
        let svg = StatusPage.chart([run(100, .changed, 10), run(200, .failed, 0), run(50, .unchanged, 20)], name: "e")
        #expect(svg.hasPrefix(#"<svg class="chart" viewBox="0 0 150 36""#))
        #expect(svg.contains(#"<rect class="bar" x="145.5" y="27" width="4" height="9">"#), "the newest, 50 ms")
        #expect(svg.contains(#"<rect class="failed" x="140.5" y="2" width="4" height="34">"#), "the longest")
        #expect(svg.contains(#"<polyline class="line" points="137.5,19 147.5,5"/>"#))
        #expect(svg.contains("e: last 3 runs, 50ms to 200ms, 20 records in the last answer"))
        #expect(StatusPage.chart([], name: "e") == #"<span class="none">no runs yet</span>"#)
        let hostile = StatusPage.chart([run(-5, .changed, -1)], name: "<b>")
        #expect(hostile.contains("&lt;b&gt;: last 1 run, 0s to 0s") && !hostile.contains("<b>"))

        let page = StatusPage(rows: [], omitted: 12, generatedAt: 1_700_000_000).html()
        #expect(page.contains("… and 12 more endpoints"))
        #expect(page.contains(#"<time datetime="2023-11-14T22:13:20.000Z">22:13:20 UTC</time>"#))
        #expect(StatusPage(rows: [], omitted: 0, generatedAt: 0).html().contains("No endpoints are configured."))
    }
}
