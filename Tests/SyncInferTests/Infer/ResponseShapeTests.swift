import Foundation
import Testing

@testable import SyncCore
@testable import SyncInfer

/// Real responses' shapes, from `Tests/Fixtures/infer`: a nested key, a side-loaded array, envelopes that page.
@Suite("Inferring from real responses")
struct ResponseShapeTests: InferringFromSamples {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/infer/\(name).json")
        return try [UInt8](Data(contentsOf: url))
    }

    @Test("GitHub's starred repositories (star+json) get the nested key repo.id, not the owner's nor starred_at")
    func starredRepositories() throws {
        let endpoint = try infer(Self.fixture("github-starred"))
        #expect(endpoint.recordsPath == .root)
        #expect(endpoint.primaryKey == "repo_id")
        let key = try #require(endpoint.columns.first { $0.name == "repo_id" })
        #expect(key.path.description == "repo.id")
        #expect(key.type == .integer && key.required)
        #expect(endpoint.columns.contains { $0.name == "repo_owner_id" })
        #expect(endpoint.pagination == nil)
        let stanza = EndpointStanza.render(endpoint)
        #expect(
            stanza.contains(
                "records = \"$\"\n# The key is nested: \"repo.id\" is unique in every record here; check that no two "
                    + "records can share it.\nprimary_key = [\"repo_id\"]\n\n[endpoint.columns]\n"))
        #expect(stanza.contains("repo_id = { path = \"repo.id\", type = \"integer\", required = true }\n"))
    }

    @Test("a Link header with rel=\"next\" proposes link pagination, uncommented")
    func linkHeader() throws {
        let links = [#"<https://api.github.com/user/starred?page=2>; rel="next", <https://x/?page=9>; rel="last""#]
        let endpoint = try infer(Self.fixture("github-starred"), links: links)
        #expect(endpoint.pagination?.value == #"{ type = "link" }"#)
        #expect(endpoint.pagination?.isConfident == true)
        #expect(
            EndpointStanza.render(endpoint).contains(
                "primary_key = [\"repo_id\"]\n# The response's Link header has a rel=\"next\" link: pages follow it.\n"
                    + "pagination = { type = \"link\" }\n\n"))
        #expect(
            try infer(Self.fixture("github-starred"), links: [#"<https://x/?page=1>; rel="prev""#]).pagination == nil)
    }

    @Test("Mastodon's grouped notifications: notification_groups, not the side-loaded statuses of the same size")
    func sideLoaded() throws {
        let endpoint = try infer(Self.fixture("mastodon-grouped-notifications"))
        #expect(endpoint.recordsPath?.description == "notification_groups")
        #expect(endpoint.recordCount == 3)
        #expect(endpoint.primaryKey == "group_key")
        #expect(
            endpoint.columns.map(\.name) == [
                "group_key", "notifications_count", "type", "most_recent_notification_id", "page_min_id",
                "page_max_id", "latest_page_notification_at", "sample_account_ids", "status_id",
            ])
        #expect(endpoint.choice == #"of the arrays of 3, "statuses" is side-loaded (these records refer to its keys)"#)
        #expect(endpoint.otherCandidates.map(\.path.description) == ["accounts", "statuses"])
    }

    @Test(
        "between arrays of the same size: not a side-loaded one, then one with a key, then the most fields, then the first",
        arguments: [
            (
                #"{"teams": [{"id": 7, "name": "core"}, {"id": 8, "name": "docs"}], "users": [{"id": 1, "team_id": 7}, {"id": 2, "team_id": 8}]}"#,
                "users", #"of the arrays of 2, "teams" is side-loaded (these records refer to its keys)"#
            ),
            (
                #"{"a": [{"n": 1, "m": 1}, {"n": 2, "m": 1}], "b": [{"id": 1}, {"id": 2}]}"#, "b",
                #"of the arrays of 2, "a" has no key"#
            ),
            (#"{"a": [{"id": 1}], "b": [{"id": 1, "x": 2}]}"#, "b", #"of the arrays of 1, "a" has fewer fields (1)"#),
            (#"{"a": [{"id": 1}], "b": [{"id": 2}]}"#, "a", #"of the arrays of 1, "b" is no better and comes later"#),
            (#"{"a": [{"n": 1}, {"n": 2}], "b": [{"id": 1}]}"#, "a", nil),
            (
                #"{"a": [{"id": 1, "b_id": 2}], "b": [{"id": 2, "a_id": 1}]}"#, "a",
                #"of the arrays of 1, "b" is no better and comes later"#
            ),
        ] as [(String, String, String?)])
    func sameSize(json: String, expected: String, choice: String?) throws {
        let endpoint = try infer(json)
        #expect(endpoint.recordsPath?.description == expected)
        #expect(endpoint.choice == choice)
    }

    @Test("without the references, the statuses would win by their fields: the side-load is what decides")
    func sideLoadDecides() throws {
        var text = String(decoding: try Self.fixture("mastodon-grouped-notifications"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"status_id\"", with: "\"status\"")
        let endpoint = try infer(text)
        #expect(endpoint.recordsPath?.description == "statuses")
        #expect(endpoint.choice?.hasPrefix(#"of the arrays of 3, "notification_groups" has fewer fields ("#) == true)
    }
}

/// Tests that infer an endpoint named `items` from a sample body, as `syncd infer` would.
protocol InferringFromSamples {}

extension InferringFromSamples {
    func infer(_ body: [UInt8], links: [String]? = nil) throws -> InferredEndpoint {
        try EndpointInference(name: "items", url: "https://example.com/items", links: links).infer(body).endpoint
    }

    func infer(_ json: String, links: [String]? = nil) throws -> InferredEndpoint {
        try infer(Array(json.utf8), links: links)
    }
}
