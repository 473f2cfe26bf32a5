import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncServe

/// A child endpoint's last parent counts over real HTTP: `/v1/endpoints`' `parents` object (as the OpenAPI document's
/// `ParentCounts` describes it) and the status page's line, after a run that succeeded and after one whose walk
/// failed; an endpoint without a parent has none.
@Suite("read API: a child endpoint's parent counts")
struct ParentCountsReadAPITests {
    /// The `parents` object of each endpoint `/v1/endpoints` lists that has one, by endpoint name.
    static func parents(_ api: ReadAPIHarness) async throws -> [String: [String: Int]] {
        let body = try await api.get("/v1/endpoints").body
        let endpoints = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]] ?? []
        return endpoints.reduce(into: [:]) { found, endpoint in
            if let name = endpoint["name"] as? String, let counts = endpoint["parents"] as? [String: Int] {
                found[name] = counts
            }
        }
    }

    @Test("/v1/endpoints and the status page show the last run's counts, a failed walk's with failed 1")
    func shown() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: "parent_concurrency = 1"))
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            _ = try await fixture.sync("issues")
            try await ReadAPIHarness.with(fixture) { api in
                let counts = ["walked": 3, "not_modified": 3, "empty": 0, "skipped": 0, "failed": 0, "left": 0]
                #expect(try await Self.parents(api) == ["issues": counts], "repos has no parent")
                // The OpenAPI document names exactly these fields, all required.
                let openAPI = try await OpenAPIDocumentTests.document(api)
                let schemas = (openAPI["components"] as? [String: Any])?["schemas"] as? [String: Any]
                let schema = try #require(schemas?["ParentCounts"] as? [String: Any])
                #expect(Set(schema["required"] as? [String] ?? []) == Set(counts.keys))
                let state = schemas?["EndpointState"] as? [String: Any]
                let reference = (state?["properties"] as? [String: Any])?["parents"] as? [String: String]
                #expect(reference == ["$ref": "#/components/schemas/ParentCounts"])
                let page = try await api.get("/")
                #expect(page.body.contains(#"<span class="parents">parents: 3 walked (3 not modified)</span>"#))
            }

            upstream.org.addIssue(to: 1)
            upstream.org.deleteRepository(3)
            #expect(try await fixture.sync("issues").outcome == .failed)
            try await ReadAPIHarness.with(fixture) { api in
                let counts = ["walked": 2, "not_modified": 1, "empty": 0, "skipped": 0, "failed": 1, "left": 0]
                #expect(try await Self.parents(api) == ["issues": counts])
                let page = try await api.get("/")
                #expect(
                    page.body.contains(#"<span class="parents">parents: 2 walked (1 not modified), 1 failed</span>"#),
                    "\(page.body)")
                #expect(page.body.components(separatedBy: #"class="parents""#).count == 2, "repos has none")
            }
        }
    }

    @Test("the status page's counts leave out those of none, and group thousands")
    func text() {
        var counts = SyncSummary.FanOut()
        #expect(StatusPage.parentsText(counts) == "parents: 0 walked")
        (counts.walked, counts.notModified, counts.empty) = (12_000, 10, 1)
        (counts.skipped, counts.failed, counts.left) = (3, 1, 2_500)
        #expect(
            StatusPage.parentsText(counts)
                == "parents: 12,000 walked (10 not modified, 1 empty), 3 skipped, 1 failed, 2,500 left for later runs")
    }
}
