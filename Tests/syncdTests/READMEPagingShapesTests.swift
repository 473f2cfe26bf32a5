import Foundation
import SampleUpstream
import Synchronization
import Testing

/// The guide's examples of paging real APIs — Crossref's deep paging, Jira's `startAt`, Bitbucket Server's
/// `isLastPage` — synced as written by the built binary, from loopback upstreams that page as each API does: only
/// the origin of each URL is changed. Each upstream counts the requests: none past the end.
@Suite("README: the paging real APIs send, synced by syncd")
struct READMEPagingShapesTests {
    /// The comment on the line before each such `toml` block.
    static let marker = "a whole file, synced against a loopback shape"

    /// The blocks of the README and the guide with ``marker``, each a whole syncd.toml.
    static func blocks() throws -> [String] {
        try READMEExampleTests.blocks().filter { $0.marker == marker }.map(\.text)
    }

    /// `block` with its URL's origin (`https://host`) replaced by `base`.
    static func pointed(_ block: String, at base: String) throws -> String {
        let lines = try block.components(separatedBy: "\n").map { line in
            guard line.hasPrefix(#"url = "https://"#) else { return line }
            let rest = line.dropFirst(#"url = "https://"#.count)
            let path = try #require(rest.firstIndex(of: "/"))
            return #"url = "\#(base)\#(rest[path...])"#
        }
        return lines.joined(separator: "\n")
    }

    static let jiraAuthorization = "Basic " + Data("me@example.com:jira-t0ken".utf8).base64EncodedString()

    /// The three upstreams on one server, each refusing a request without its credentials.
    static func answer(_ request: UpstreamRequest, works: CrossrefWorks) -> UpstreamResponse {
        switch request.path {
        case "/works":
            return works.answer(request)
        case "/rest/api/2/search" where request.header("Authorization") == jiraAuthorization:
            return JiraSearch.answer(request, count: 200)
        case "/rest/api/1.0/projects/PRJ/repos" where request.header("Authorization") == "Bearer bb-t0ken":
            return BitbucketServerRepos.answer(request, count: 250)
        default:
            return .json(Array(#"{"message": "unauthorized"}"#.utf8), status: 401)
        }
    }

    @Test("Crossref, Jira and Bitbucket Server as the README writes them: every record, no request past the end")
    func sync() async throws {
        let blocks = try Self.blocks()
        #expect(blocks.count == 3)
        let works = CrossrefWorks(count: 2500)
        let received = Mutex<[UpstreamRequest]>([])
        let server = try await LoopbackHTTPServer.start { request in
            received.withLock { $0.append(request) }
            return Self.answer(request, works: works)
        }
        let toml =
            try "database = \"cache.db\"\n\n"
            + blocks.map { try Self.pointed($0, at: server.baseURL) }
            .joined(separator: "\n\n")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let sync = try await SyncdProcess.run(
            ["sync", "--config", workspace.config],
            environment: ["JIRA_API_TOKEN": "jira-t0ken", "BITBUCKET_TOKEN": "bb-t0ken"])
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardError)")
        let requests = received.withLock { $0 }
        // A request retried under load (a timeout, a dropped connection) is the same request again: only the pages
        // asked count. A retried cursor=* starts a new scroll; the last one is the walk that was stored.
        func asked(_ path: String, _ name: String) -> [String?] {
            requests.filter { $0.path == path }.map { $0.query[name] }.reduce(into: []) { pages, value in
                if pages.last != value { pages.append(value) }
            }
        }
        let scrolls = requests.filter { $0.path == "/works" }
        let walk = scrolls[(scrolls.lastIndex { $0.query["cursor"] == "*" } ?? scrolls.startIndex)...].map {
            $0.query
        }
        #expect(walk.map { $0["cursor"] } == ["*"] + Array(repeating: walk.last?["cursor"], count: 3))
        #expect(
            walk.last?["cursor"]?.hasPrefix("DnF1ZXJ5VGhlbkZldGNo+/") == true, "1000, 1000 and 500 works, then none")
        #expect(scrolls.first?.uri.hasSuffix("&rows=1000&cursor=*&mailto=ops@example.com") == true)
        #expect(
            asked("/rest/api/2/search", "startAt") == ["0", "100"],
            "two full pages reach the total of 200: no startAt=200, which gets a 400")
        #expect(
            asked("/rest/api/1.0/projects/PRJ/repos", "start") == [nil, "100", "200"], "the third page says isLastPage")

        let stored = try await workspace.run([
            "sql",
            "SELECT (SELECT count(*) FROM works) AS works, (SELECT count(*) FROM issues) AS issues, "
                + "(SELECT count(*) FROM repos) AS repos, (SELECT title FROM works WHERE doi = '10.5555/works.2500') "
                + "AS last_work, (SELECT status FROM issues WHERE key = 'PRJ-200') AS status", "--format", "csv",
        ])
        #expect(
            stored.standardOutput
                == "works,issues,repos,last_work,status\r\n2500,200,250,Work 2500,Done\r\n", "\(stored.standardError)")
    }
}
