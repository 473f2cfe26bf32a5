import SyncCore
import Testing

@testable import SyncInfer

/// `syncd infer --parent`: which of a parent's stored columns a child's URL holds, matched by whole URL parts only.
@Suite("Proposing a child endpoint's parent")
struct ParentProposalTests {
    typealias Value = SyncCache.SQLValue

    static let repos: [[Value]] = [
        [.integer(1), .text("acme/gadgets"), .text("gadgets")],
        [.integer(17), .text("acme/widgets"), .text("widgets")],
    ]

    static func propose(_ url: String, rows: [[Value]] = repos) -> ParentProposal? {
        ParentProposal.propose(
            url: url, parent: "repos", columns: ["id", "full_name", "name"], key: ["id"], rows: rows)
    }

    @Test("GitHub's full_name spans two path segments, and beats the shorter name that is one of them")
    func fullNameSpansSegments() throws {
        let proposal = try #require(Self.propose("https://api.github.com/repos/acme/widgets/issues?state=all"))
        #expect(proposal.column == "full_name")
        #expect(proposal.value == "acme/widgets")
        #expect(proposal.template == "https://api.github.com/repos/{parent.full_name:path}/issues?state=all")
        #expect(proposal.keyColumn == "id")
        #expect(proposal.rowsRead == 2)
    }

    @Test("an integer key is matched as a whole segment, never inside one")
    func integerSegment() throws {
        let proposal = try #require(Self.propose("https://jira.example.com/rest/api/2/project/17/issues"))
        #expect(proposal.column == "id")
        #expect(proposal.template == "https://jira.example.com/rest/api/2/project/{parent.id}/issues")
        // 17 is inside "v170" and "x17": no whole part holds it.
        #expect(Self.propose("https://example.com/v170/x17/issues") == nil)
    }

    @Test("a query value matches, percent-decoded, and the rest of the query stays as written")
    func queryValue() throws {
        let proposal = try #require(
            Self.propose("https://example.com/search/issues?q=x&repo=acme%2Fwidgets&per_page=100"))
        #expect(proposal.column == "full_name")
        #expect(proposal.template == "https://example.com/search/issues?q=x&repo={parent.full_name}&per_page=100")
    }

    @Test("a percent-encoded path segment is compared decoded")
    func encodedSegment() throws {
        let rows: [[Value]] = [[.integer(3), .text("a b"), .text("R&D")]]
        let proposal = try #require(Self.propose("https://example.com/teams/R%26D/members", rows: rows))
        #expect(proposal.column == "name")
        #expect(proposal.template == "https://example.com/teams/{parent.name}/members")
    }

    @Test("nothing matches: no row's value is a whole part of the URL; NULL, blobs and empty texts never match")
    func noMatch() {
        #expect(Self.propose("https://example.com/teams/9/members") == nil)
        let rows: [[Value]] = [[.null, .text(""), .blob([0x39])]]
        #expect(Self.propose("https://example.com/teams/9/members", rows: rows) == nil)
        #expect(Self.propose("not a url") == nil)
    }

    @Test("the column the child's rows carry the parent's key in: singular of the parent, or parent_KEY when taken")
    func carriedColumn() throws {
        let proposal = try #require(Self.propose("https://example.com/repos/acme/widgets/issues"))
        #expect(proposal.carriedColumn(avoiding: []) == "repo_id")
        #expect(proposal.carriedColumn(avoiding: ["repo_id"]) == "parent_id")
        #expect(proposal.carriedColumn(avoiding: ["repo_id", "parent_id"]) == nil)
        var categories = proposal
        categories.parent = "categories"
        #expect(categories.carriedColumn(avoiding: []) == "category_id")
        var noKey = proposal
        noKey.keyColumn = nil
        #expect(noKey.carriedColumn(avoiding: []) == nil)
    }

    @Test("the stanza's URL, its secrets left out, still takes the placeholder")
    func templateOfCleanedURL() throws {
        let proposal = try #require(Self.propose("https://example.com/repos/acme/widgets/issues?api_key=s3cret"))
        #expect(
            proposal.template(of: "https://example.com/repos/acme/widgets/issues")
                == "https://example.com/repos/{parent.full_name:path}/issues")
        #expect(proposal.template(of: "https://example.com/other") == "https://example.com/other")
    }
}
