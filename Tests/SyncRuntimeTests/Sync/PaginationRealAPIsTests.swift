import Foundation
import SampleUpstream
import SyncCore
import SyncTesting
import Testing

@testable import SyncSQLite

/// The paging real APIs send (issue 43), synced end to end from loopback upstreams that page as each API does:
/// Crossref's scroll cursor that stays the same, Jira's `startAt` that refuses a page past `total`, Bitbucket Server's
/// `isLastPage`, and GitHub's one page whose `rel="last"` is `?page=1`. Each counts the requests: none past the end.
@Suite("sync: the paging real APIs send")
struct PaginationRealAPIsTests {
    static func toml(name: String, url: String, records: String, key: String, pagination: String) -> String {
        """
        [[endpoint]]
        name = "\(name)"
        url = "\(url)"
        records = "\(records)"
        primary_key = ["key"]
        pagination = \(pagination)

        [endpoint.columns]
        key = "\(key)"
        """
    }

    static func keys(_ fixture: SyncFixture, _ name: String) throws -> [String] {
        try fixture.rows("SELECT key FROM \(name)").compactMap { $0.text("key") }.sorted()
    }

    static let crossref =
        #"{ type = "cursor", cursor_path = "message.next-cursor", param = "cursor", repeat_cursor = true"#

    /// Syncs seven works, three a page, from a Crossref-shaped upstream paged by `pagination`, and hands over what
    /// the upstream saw and the fixture.
    static func withCrossref(
        pagination: String, _ body: (TestUpstream, SyncFixture, SyncSummary) async throws -> Void
    ) async throws {
        try await withTestUpstream { upstream in
            let works = CrossrefWorks(count: 7)
            upstream.route("/works") { works.answer($0) }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    name: "works", url: upstream.url("/works?rows=3&cursor=*"), records: "message.items", key: "DOI",
                    pagination: pagination))
            try await body(upstream, fixture, try await fixture.sync("works"))
        }
    }

    @Test("Crossref: cursor=* first, the same scroll id on every page after, the walk ends at the empty page")
    func crossrefScroll() async throws {
        try await Self.withCrossref(pagination: Self.crossref + " }") { upstream, fixture, report async throws in
            #expect(report.outcome == .changed && report.inserted == 7 && report.pages == 4, "\(report)")
            #expect(try Self.keys(fixture, "works") == (1...7).map(CrossrefWorks.doi).sorted())
            let scroll = "DnF1ZXJ5VGhlbkZldGNo%2B%2F1%3D"
            #expect(
                upstream.requests.map(\.uri)
                    == ["/works?rows=3&cursor=*"] + Array(repeating: "/works?rows=3&cursor=\(scroll)", count: 3))
            // The next run starts a scroll of its own from the URL's cursor=*.
            #expect(try await fixture.sync("works").outcome == .unchanged)
            #expect(upstream.requests.dropFirst(4).first?.uri == "/works?rows=3&cursor=*")
            #expect(upstream.requests.last?.query["cursor"] == "DnF1ZXJ5VGhlbkZldGNo+/2=")
        }
    }

    @Test("Crossref with total_path: the short last page reaches the total, and the empty page is never asked")
    func crossrefTotal() async throws {
        let pagination = Self.crossref + #", total_path = "message.total-results" }"#
        try await Self.withCrossref(pagination: pagination) { upstream, _, report in
            #expect(report.outcome == .changed && report.inserted == 7 && report.pages == 3, "\(report)")
            #expect(upstream.requests.count == 3)
        }
    }

    @Test("Crossref without repeat_cursor: the repeated scroll id is refused as a loop at page 2")
    func crossrefWithoutTheOption() async throws {
        let pagination = #"{ type = "cursor", cursor_path = "message.next-cursor", param = "cursor" }"#
        try await Self.withCrossref(pagination: pagination) { _, _, report in
            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == "works: page 2 repeats an earlier cursor at message.next-cursor: the pagination loops; kept the "
                    + "stored data")
        }
    }

    static func jira(maxPages: Int? = nil, total: Bool = true) -> String {
        var pagination = #"{ type = "offset", param = "startAt", limit_param = "maxResults", limit = 3"#
        if total { pagination += #", total_path = "total""# }
        if let maxPages { pagination += ", max_pages = \(maxPages)" }
        return pagination + " }"
    }

    @Test("Jira: a full last page reaches total, and no startAt past it is asked, even with max_pages at the count")
    func jira() async throws {
        for maxPages in [nil, 2] {
            try await withTestUpstream { upstream in
                upstream.route("/rest/api/2/search") { JiraSearch.answer($0, count: 6) }
                let fixture = try SyncFixture(
                    toml: Self.toml(
                        name: "issues", url: upstream.url("/rest/api/2/search?jql=project%3DPRJ"), records: "issues",
                        key: "key", pagination: Self.jira(maxPages: maxPages)))
                let report = try await fixture.sync("issues")
                #expect(report.outcome == .changed && report.inserted == 6 && report.pages == 2, "\(report)")
                #expect(try Self.keys(fixture, "issues") == (1...6).map(JiraSearch.key).sorted())
                #expect(
                    upstream.requests.map(\.uri) == [
                        "/rest/api/2/search?jql=project%3DPRJ&startAt=0&maxResults=3",
                        "/rest/api/2/search?jql=project%3DPRJ&startAt=3&maxResults=3",
                    ])
            }
        }
    }

    @Test("Jira without total_path asks the page past the end, which Jira refuses: the shape fails as the API does")
    func jiraWithoutTotal() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/rest/api/2/search") { JiraSearch.answer($0, count: 6) }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    name: "issues", url: upstream.url("/rest/api/2/search"), records: "issues", key: "key",
                    pagination: Self.jira(total: false)))
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .failed)
            #expect(report.error == "issues: page 3: HTTP 400 Bad Request from the upstream; kept the stored data")
            #expect(upstream.requests.count == 3)
        }
    }

    static let bitbucketCursor =
        #"{ type = "cursor", cursor_path = "nextPageStart", param = "start", last_page_path = "isLastPage" }"#

    @Test(
        "Bitbucket Server: nextPageStart while isLastPage is false; isLastPage true ends the walk, a full page too",
        arguments: [
            (bitbucketCursor, 5, 3), (bitbucketCursor, 4, 2),
            (
                #"{ type = "offset", param = "start", limit_param = "limit", limit = 2, last_page_path = "isLastPage" }"#,
                4, 2
            ),
        ])
    func bitbucket(pagination: String, count: Int, requests: Int) async throws {
        try await withTestUpstream { upstream in
            let path = "/rest/api/1.0/projects/PRJ/repos"
            upstream.route(path) { BitbucketServerRepos.answer($0, count: count) }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    name: "repos", url: upstream.url(path + "?limit=2"), records: "values", key: "slug",
                    pagination: pagination))
            let report = try await fixture.sync("repos")
            #expect(report.outcome == .changed && report.inserted == count, "\(report)")
            #expect(try Self.keys(fixture, "repos") == (1...count).map(BitbucketServerRepos.slug).sorted())
            #expect(upstream.requests.count == requests)
            #expect(upstream.requests.last?.query["start"] == String((requests - 1) * 2))
        }
    }

    @Test("Bitbucket Server: a walk that ends while isLastPage says false fails the run and keeps the stored data")
    func bitbucketUnfinished() async throws {
        try await withTestUpstream { upstream in
            let path = "/rest/api/1.0/projects/PRJ/repos"
            let broken = SharedValue(false)
            upstream.route(path) { request in
                if broken.value, request.query["start"] == "2" {
                    return jsonAnswer(#"{"size": 0, "limit": 2, "isLastPage": false, "values": [], "start": 2}"#)
                }
                return BitbucketServerRepos.answer(request, count: 3)
            }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    name: "repos", url: upstream.url(path + "?limit=2"), records: "values", key: "slug",
                    pagination: Self.bitbucketCursor))
            #expect(try await fixture.sync("repos").inserted == 3)
            broken.value = true
            let report = try await fixture.sync("repos")
            #expect(
                report.error
                    == "repos: the pages ended at page 2 while last_page_path (isLastPage) says false: the upstream "
                    + "announces more; kept the stored data")
            #expect(try Self.keys(fixture, "repos").count == 3)
        }
    }

    @Test(
        "GitHub: one page whose Link says rel=last is ?page=1 is complete; a longer walk reaches its rel=last",
        arguments: [(3, 1), (7, 3)])
    func gitHub(count: Int, requests: Int) async throws {
        try await withTestUpstream { upstream in
            upstream.route("/repos/o/r/issues") { GitHubIssues.answer($0, count: count) }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    name: "issues", url: upstream.url("/repos/o/r/issues?per_page=3"), records: "$", key: "title",
                    pagination: #"{ type = "link" }"#))
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.inserted == count, "\(report)")
            #expect(upstream.requests.count == requests)
            #expect(upstream.requests.first?.uri == "/repos/o/r/issues?per_page=3")
        }
        if count == 3 {
            // What the upstream answers, as recorded: a Link naming the page just fetched as the last, with page=1.
            let answer = GitHubIssues.answer(
                UpstreamRequest(uri: "/repos/o/r/issues?per_page=3", headers: [("Host", "127.0.0.1:1")]), count: 3)
            #expect(
                answer.headers.first { $0.name == "Link" }?.value
                    == #"<http://127.0.0.1:1/repos/o/r/issues?per_page=3&page=1>; rel="last""#)
        }
    }
}
