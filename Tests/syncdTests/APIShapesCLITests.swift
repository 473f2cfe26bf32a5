import Foundation
import SampleUpstream
import Testing

/// The shapes of issue 13 from the command line: a Stripe list paged by its last record's id, and a GraphQL
/// connection POSTed from a `body_file`, synced by the built binary from loopback upstreams.
@Suite("syncd: Stripe and GraphQL pagination from the CLI")
struct APIShapesCLITests {
    static func toml(_ base: String) -> String {
        """
        database = "cache.db"

        [[endpoint]]
        name = "customers"
        url = "\(base)/v1/customers?limit=4"
        records = "data"
        primary_key = ["id"]
        pagination = { type = "cursor", from = "last_record", cursor_path = "id", param = "starting_after", has_more_path = "has_more" }

        [endpoint.columns]
        id = "id"
        email = "email"

        \(GraphQLConnection.endpointTOML(url: base + "/graphql", bodyLine: #"body_file = "issues.graphql.json""#))
        """
    }

    @Test("check-config accepts both, sync walks every page, sql reads what was stored")
    func sync() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/graphql"
                ? GraphQLConnection.answer(request, count: 10) : StripeList.answer(request, count: 10)
        }
        let workspace = try CLITests.Workspace(toml: Self.toml(server.baseURL))
        defer { workspace.remove() }
        try GraphQLConnection.query.write(
            toFile: workspace.path + "/issues.graphql.json", atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(
            check.standardOutput.contains("  issues: snapshot, 3 columns, every 5m, POST \(server.baseURL)/graphql\n"))
        let sync = try await workspace.run(["sync"])
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardError)")
        let stored = try await workspace.run([
            "sql",
            "SELECT e.name, e.record_count, r.pages, (SELECT count(DISTINCT title) FROM issues) AS titles "
                + "FROM syncd_endpoints e JOIN syncd_runs r ON r.endpoint = e.name ORDER BY e.name", "--format", "csv",
        ])
        #expect(stored.standardOutput == "name,record_count,pages,titles\r\ncustomers,10,3,10\r\nissues,10,4,10\r\n")
    }
}
