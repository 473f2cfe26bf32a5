import SampleUpstream
import Testing

@testable import SyncCore
@testable import SyncInfer

/// The pagination proposed for the shapes of the APIs in issue 43, from the loopback upstreams that reproduce them,
/// and the configuration `syncd infer --pages` follows for each.
@Suite("Proposing pagination for counted and cursor envelopes")
struct ProposedPaginationTests: InferringFromSamples {
    /// The first page of the loopback upstream of that name, for `uri`.
    static func firstPage(_ upstream: String, _ uri: String) -> [UInt8] {
        let request = UpstreamRequest(uri: uri)
        return switch upstream {
        case "jira": InferJira.answer(request).body
        case "inaturalist": InferINaturalist.answer(request).body
        case "discogs": InferDiscogs.answer(request).body
        case "google": InferGoogleTokens.answer(request).body
        case "crossref": InferCrossref().answer(request).body
        default: InferBitbucketServer.answer(request).body
        }
    }

    @Test(
        "the loopback shapes of Jira, iNaturalist, Discogs, Google, Crossref and Bitbucket Server: sure proposals",
        arguments: [
            (
                "jira", "/search",
                #"{ type = "offset", param = "startAt", limit_param = "maxResults", limit = 20, total_path = "total" }"#
            ),
            (
                "inaturalist", "/observations?per_page=50",
                #"{ type = "page", param = "page", size_param = "per_page", size = 50, total_path = "total_results" }"#
            ),
            (
                "discogs", "/releases",
                #"{ type = "page", param = "page", size_param = "per_page", size = 25, total_path = "pagination.items" }"#
            ),
            ("google", "/volumes", #"{ type = "cursor", cursor_path = "nextPageToken", param = "pageToken" }"#),
            (
                "crossref", "/works?cursor=*",
                #"{ type = "cursor", cursor_path = "message.next-cursor", param = "cursor", repeat_cursor = true }"#
            ),
            (
                "bitbucket", "/repos",
                #"{ type = "cursor", cursor_path = "nextPageStart", param = "start", last_page_path = "isLastPage" }"#
            ),
        ] as [(String, String, String)])
    func sure(upstream: String, uri: String, value: String) throws {
        let proposal = try #require(try infer(Self.firstPage(upstream, uri)).pagination)
        #expect(proposal.value == value)
        #expect(proposal.isConfident)
        #expect(proposal.notes.allSatisfy { !$0.hasPrefix("TODO") })
        #expect(proposal.follow?.repeatsCursor == (upstream == "crossref"))
    }

    @Test("what --pages follows: the proposal as a configuration, repeat_cursor and last_page_path included")
    func followed() throws {
        func follow(_ upstream: String, _ uri: String) throws -> PaginationConfiguration? {
            try infer(Self.firstPage(upstream, uri)).pagination?.follow
        }
        let jira = try follow("jira", "/search")
        #expect(jira?.kind == .offset(param: "startAt", limitParam: "maxResults", limit: 20))
        #expect(jira?.totalPath?.description == "total")
        #expect(
            try follow("inaturalist", "/observations")?.kind
                == .page(param: "page", start: 1, sizeParam: "per_page", size: 30))
        #expect(
            try follow("crossref", "/works?cursor=*")?.kind
                == .cursor(
                    path: try JSONPath(parsing: "message.next-cursor"), from: .body, to: .query("cursor"),
                    repeats: true))
        #expect(
            try follow("bitbucket", "/repos")?.kind
                == .cursor(path: try JSONPath(parsing: "nextPageStart"), from: .body, to: .query("start")))
        #expect(try follow("bitbucket", "/repos")?.hasMorePath == nil)
        #expect(try follow("bitbucket", "/repos")?.lastPagePath?.description == "isLastPage")
    }

    @Test("a zero-based page starts at 0; Jira's nextPageToken beside isLast stays a guess, not followed")
    func unusual() throws {
        let zeroBased = try #require(
            try infer(#"{"page": 0, "pageSize": 2, "data": [{"id": 1}, {"id": 2}]}"#).pagination)
        #expect(zeroBased.value == #"{ type = "page", param = "page", start = 0, size_param = "pageSize", size = 2 }"#)
        let jira = try #require(
            try infer(#"{"issues": [{"id": "1"}], "nextPageToken": "abc", "isLast": false}"#).pagination)
        #expect(!jira.isConfident)
        #expect(jira.follow == nil)
    }

    @Test(
        "a page size outside what the configuration takes proposes nothing from the counts",
        arguments: [
            #"{"startAt": 0, "maxResults": 0, "issues": [{"id": 1}]}"#,
            #"{"page": 1, "per_page": 2000000, "results": [{"id": 1}]}"#,
            #"{"page": 1, "per_page": "10", "results": [{"id": 1}]}"#,
            #"{"page": 1, "results": [{"id": 1}], "meta": {"per_page": 10}}"#,
        ])
    func outOfBounds(json: String) throws {
        #expect(try infer(json).pagination == nil)
    }
}
