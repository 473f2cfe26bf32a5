import Foundation
import SampleUpstream
import Testing

/// `syncd infer --pages`: the pagination proposed is followed before the columns are decided, and the stanza, as
/// proposed, syncs the loopback upstream it was inferred from completely (every page, every row, none rejected).
@Suite("syncd infer over several pages")
struct InferPagesTests {
    typealias Workspace = CLITests.Workspace

    /// What `syncd infer` printed for a URL, and what a sync with that stanza stored.
    struct Synced {
        var inferred: SyncdProcess.Result
        var rows: Int
        var rejected: Int
        var syncError: String
    }

    /// Infers a stanza from `path` of a loopback upstream, syncs it, and counts the rows and the rejected records.
    static func inferAndSync(
        _ path: String, table: String, arguments: [String] = [],
        handler: @escaping @Sendable (UpstreamRequest) async -> UpstreamResponse
    ) async throws -> Synced {
        let server = try await LoopbackHTTPServer.start(handler: handler)
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let inferred = try await SyncdProcess.run(["infer", server.baseURL + path] + arguments)
        try (InferTests.header + inferred.standardOutput).write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let sync = try await workspace.run(["sync"])
        try await server.shutdown()
        let counts = try await workspace.run([
            "sql", "SELECT (SELECT count(*) FROM \(table)) AS n, (SELECT count(*) FROM syncd_errors) AS e",
            "--format", "csv",
        ])
        let numbers = counts.standardOutput.split(separator: "\r\n").dropFirst().first?.split(separator: ",") ?? []
        return Synced(
            inferred: inferred, rows: numbers.first.flatMap { Int($0) } ?? -1,
            rejected: numbers.dropFirst().first.flatMap { Int($0) } ?? -1, syncError: sync.standardError)
    }

    @Test("a Discogs-like collection: page 2 has a release without year, so year is not required, and every row syncs")
    func discogsYear() async throws {
        let synced = try await Self.inferAndSync("/releases", table: "releases") { InferDiscogs.answer($0) }
        #expect(synced.inferred.status == 0, "\(synced.inferred.standardError)")
        #expect(synced.inferred.standardError == "syncd: 57 records on all 3 pages at \"releases\", 5 columns\n")
        let stanza = synced.inferred.standardOutput
        #expect(stanza.hasPrefix("# 57 records on all 3 pages at \"releases\": every one was read to infer these"))
        #expect(
            stanza.contains(
                """
                records = "releases"
                primary_key = ["id"]
                # Page numbers: each page asks page=1, 2… with per_page=25, until "pagination.items" records were read.
                pagination = { type = "page", param = "page", size_param = "per_page", size = 25, total_path = "pagination.items" }

                [endpoint.columns]
                id = { path = "id", type = "integer", required = true }
                title = { path = "title", type = "text", required = true }
                artist = { path = "artist", type = "text", required = true }
                year = { path = "year", type = "integer" }
                format = { path = "format", type = "text", required = true }

                """), "\(stanza)")
        #expect(synced.syncError.isEmpty, "\(synced.syncError)")
        #expect(synced.rows == InferDiscogs.count)
        #expect(synced.rejected == 0)
    }

    @Test("--pages 1 reads page 1 alone: more follow, so required stays in comments, and every row still syncs")
    func onePageOfSeveral() async throws {
        let synced = try await Self.inferAndSync("/releases", table: "releases", arguments: ["--pages", "1"]) {
            InferDiscogs.answer($0)
        }
        #expect(synced.inferred.status == 0, "\(synced.inferred.standardError)")
        #expect(
            synced.inferred.standardError
                == "syncd: 25 records at \"releases\", on the first page (more follow), 5 columns; required is left "
                + "in comments\n")
        #expect(
            synced.inferred.standardOutput.contains(
                """
                [endpoint.columns]
                # Only the first page was read, and more follow: a column every record of it has keeps required = true in a comment,
                # since a record of a later page without the value would be rejected.
                id = { path = "id", type = "integer", required = true }
                title = { path = "title", type = "text" }  # required = true
                artist = { path = "artist", type = "text" }  # required = true
                year = { path = "year", type = "integer" }  # required = true
                format = { path = "format", type = "text" }  # required = true

                """), "\(synced.inferred.standardOutput)")
        #expect(synced.syncError.isEmpty, "\(synced.syncError)")
        #expect(synced.rows == InferDiscogs.count)
        #expect(synced.rejected == 0)
    }

    @Test(
        "Jira's startAt, iNaturalist's page, Google's nextPageToken: the stanza proposed syncs every page",
        arguments: [
            (
                "/rest/api/2/search", "search", InferJira.count,
                #"pagination = { type = "offset", param = "startAt", limit_param = "maxResults", limit = 20, total_path = "total" }"#,
                "syncd: 45 records on all 3 pages at \"issues\", 4 columns\n"
            ),
            (
                "/v1/observations", "observations", InferINaturalist.count,
                #"pagination = { type = "page", param = "page", size_param = "per_page", size = 30, total_path = "total_results" }"#,
                "syncd: 64 records on all 3 pages at \"results\", 5 columns\n"
            ),
            (
                "/books/v1/volumes", "volumes", InferGoogleTokens.count,
                #"pagination = { type = "cursor", cursor_path = "nextPageToken", param = "pageToken" }"#,
                "syncd: 30 records on the first 3 pages at \"items\" (more follow), 4 columns\n"
            ),
        ] as [(String, String, Int, String, String)])
    func shapesSync(path: String, table: String, count: Int, pagination: String, summary: String) async throws {
        let synced = try await Self.inferAndSync(path, table: table) { request in
            switch request.path {
            case "/rest/api/2/search": InferJira.answer(request)
            case "/v1/observations": InferINaturalist.answer(request)
            default: InferGoogleTokens.answer(request)
            }
        }
        #expect(synced.inferred.status == 0, "\(synced.inferred.standardError)")
        #expect(synced.inferred.standardError == summary)
        #expect(synced.inferred.standardOutput.contains("\n" + pagination + "\n"), "\(synced.inferred.standardOutput)")
        #expect(synced.syncError.isEmpty, "\(synced.syncError)")
        #expect(synced.rows == count)
        #expect(synced.rejected == 0)
    }

    @Test("Crossref's next-cursor proposes repeat_cursor, Bitbucket Server's nextPageStart last_page_path")
    func newKeysProposed() async throws {
        let crossref = InferCrossref()
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/works" ? crossref.answer(request) : InferBitbucketServer.answer(request)
        }
        // Page 4 is empty: Crossref's cursor stays the same, and only an empty page ends the walk.
        let works = try await SyncdProcess.run(["infer", server.baseURL + "/works?cursor=*", "--pages", "4"])
        let repositories = try await SyncdProcess.run(["infer", server.baseURL + "/rest/api/1.0/repos"])
        try await server.shutdown()
        #expect(works.status == 0, "\(works.standardError)")
        #expect(
            works.standardError == "syncd: 47 records on all 3 pages at \"message.items\", 4 columns\n")
        #expect(
            works.standardOutput.contains(
                """
                records = "message.items"
                primary_key = ["doi"]
                # Crossref's cursor: the url asks cursor=* and each page sends "message.next-cursor" back as cursor; it may stay the
                # same (repeat_cursor), and the walk ends at an empty page.
                pagination = { type = "cursor", cursor_path = "message.next-cursor", param = "cursor", repeat_cursor = true }

                """), "\(works.standardOutput)")
        #expect(repositories.status == 0, "\(repositories.standardError)")
        #expect(repositories.standardError == "syncd: 40 records on all 2 pages at \"values\", 5 columns\n")
        #expect(
            repositories.standardOutput.contains(
                """
                records = "values"
                primary_key = ["id"]
                # Bitbucket Server's pages: each sends "nextPageStart" back as start, until "isLastPage" is true.
                pagination = { type = "cursor", cursor_path = "nextPageStart", param = "start", last_page_path = "isLastPage" }

                """), "\(repositories.standardOutput)")
    }
}

extension InferPagesTests {
    @Test("Crossref's repeating cursor and Bitbucket Server's isLastPage: the stanzas proposed sync every row")
    func newKeysSync() async throws {
        let crossref = InferCrossref()
        let works = try await Self.inferAndSync("/works?cursor=*", table: "works", arguments: ["--pages", "4"]) {
            request in crossref.answer(request)
        }
        #expect(works.inferred.status == 0, "\(works.inferred.standardError)")
        #expect(works.inferred.standardOutput.contains("repeat_cursor = true"))
        #expect(works.syncError.isEmpty, "\(works.syncError)")
        #expect(works.rows == InferCrossref.count && works.rejected == 0)

        let repositories = try await Self.inferAndSync("/rest/api/1.0/repos", table: "repos") { request in
            InferBitbucketServer.answer(request)
        }
        #expect(repositories.inferred.status == 0, "\(repositories.inferred.standardError)")
        #expect(repositories.inferred.standardOutput.contains(#"last_page_path = "isLastPage""#))
        #expect(repositories.syncError.isEmpty, "\(repositories.syncError)")
        #expect(repositories.rows == InferBitbucketServer.count && repositories.rejected == 0)
    }

    @Test("--pages outside 1…20 is refused in one sentence before anything is fetched", arguments: ["0", "21", "-3"])
    func pagesOutOfRange(pages: String) async throws {
        let result = try await SyncdProcess.run(["infer", "http://127.0.0.1:9/items", "--pages=\(pages)"])
        #expect(result.status == 64)
        #expect(
            result.standardError.hasPrefix("Error: --pages \(pages) is out of range: read from 1 to 20 pages\n"),
            "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("a page that fails stops the walk: stderr names it, and the stanza from page 1 keeps required in comments")
    func failingPage() async throws {
        // Infer asks /releases?page=2; the sync's pages carry per_page and are served.
        let synced = try await Self.inferAndSync("/releases", table: "releases") { request in
            request.query["page"] == "2" && request.query["per_page"] == nil
                ? UpstreamResponse(status: 503) : InferDiscogs.answer(request)
        }
        #expect(synced.inferred.status == 0, "\(synced.inferred.standardError)")
        #expect(
            synced.inferred.standardError
                == "syncd: 25 records at \"releases\", on the first page (more follow), 5 columns; required is left "
                + "in comments\nsyncd: stopped at page 2: the server answered 503 Service Unavailable, not a 2xx\n")
        #expect(synced.inferred.standardOutput.contains("year = { path = \"year\", type = \"integer\" }  # required"))
        #expect(synced.syncError.isEmpty, "\(synced.syncError)")
        #expect(synced.rows == InferDiscogs.count && synced.rejected == 0)
    }
}
