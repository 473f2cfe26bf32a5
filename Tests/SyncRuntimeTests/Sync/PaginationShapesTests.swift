import Foundation
import SampleUpstream
import SyncCore
import SyncTesting
import Testing

@testable import SyncSQLite

/// The shapes real APIs page in: Stripe's cursor taken from the last record, and GraphQL's cursor sent in the body
/// of a POST. Each upstream checks what it receives exactly as the real one would.
@Suite("sync: last-record cursors, POST and GraphQL")
struct PaginationShapesTests {
    static let customerIDs = StripeList.customerIDs(count: 8)

    static func stripePage(after cursor: String?, limit: Int) -> UpstreamResponse {
        var query = "limit=\(limit)"
        if let cursor { query += "&starting_after=\(cursor)" }
        return StripeList.answer(UpstreamRequest(uri: "/v1/customers?" + query), count: 8)
    }

    static func customersTOML(_ url: String, pagination: String) -> String {
        """
        [[endpoint]]
        name = "customers"
        url = "\(url)"
        records = "data"
        primary_key = ["id"]
        pagination = \(pagination)

        [endpoint.columns]
        id = "id"
        email = "email"
        """
    }

    static let stripePagination =
        #"{ type = "cursor", from = "last_record", cursor_path = "id", param = "starting_after", "#
        + #"has_more_path = "has_more" }"#

    @Test("Stripe: each page asks starting_after the last record's id while has_more is true")
    func stripe() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/v1/customers") { StripeList.answer($0, count: 8) }
            let fixture = try SyncFixture(
                toml: Self.customersTOML(upstream.url("/v1/customers?limit=3"), pagination: Self.stripePagination))
            let report = try await fixture.sync("customers")
            #expect(report.outcome == .changed && report.inserted == 8 && report.pages == 3)
            let stored = try fixture.rows("SELECT id FROM customers ORDER BY id DESC").compactMap { $0.text("id") }
            #expect(stored == Self.customerIDs)
            #expect(
                upstream.requests.map(\.uri) == [
                    "/v1/customers?limit=3",
                    "/v1/customers?limit=3&starting_after=\(Self.customerIDs[2])",
                    "/v1/customers?limit=3&starting_after=\(Self.customerIDs[5])",
                ])
        }
    }

    struct Customer: Decodable, Sendable {
        var id: String
        var email: String
    }

    struct Issue: Decodable, Sendable {
        var number: Int
        var title: String
    }

    @Test("from Swift: a Stripe list and a GraphQL connection through SyncCache's public API")
    func library() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/v1/customers") { StripeList.answer($0, count: 8) }
            upstream.route("/graphql") { Self.graphQLAnswer($0) }
            var customers = SyncEndpoint(
                name: "customers", url: upstream.url("/v1/customers?limit=3"), records: "data", primaryKey: ["id"],
                columns: [.init("id"), .init("email")])
            customers.pagination = .cursor(
                path: "id", param: "starting_after", from: .lastRecord, hasMorePath: "has_more")
            var issues = SyncEndpoint(
                name: "issues", url: upstream.url("/graphql"), records: "data.repository.issues.nodes",
                primaryKey: ["number"], columns: [.init("number", type: .integer), .init("title")])
            issues.method = .post
            issues.body = Self.issuesQuery
            issues.pagination = .cursor(
                path: "data.repository.issues.pageInfo.endCursor", bodyPath: "variables.after",
                hasMorePath: "data.repository.issues.pageInfo.hasNextPage")
            let files = try TemporaryDirectory()
            let cache = try SyncCache(
                path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [customers, issues]))
            #expect(try await cache.sync("customers").records == 8)
            #expect(try await cache.sync("issues").records == 7)
            let stored = try await cache.records(Customer.self, from: "customers")
            #expect(Set(stored.values.map(\.id)) == Set(Self.customerIDs))
            #expect(try await cache.records(Issue.self, from: "issues").values.map(\.number).sorted() == Array(1...7))
            try await cache.shutdown()
        }
    }

    @Test(
        "Stripe: has_more with an empty page, or a last record without the cursor, fails the run and keeps the data",
        arguments: [
            #"{"object": "list", "data": [], "has_more": true}"#,
            #"{"object": "list", "data": [{"id": "cus_1"}, {"email": "x"}], "has_more": true}"#,
            #"{"object": "list", "data": [{"id": "cus_1"}, {"id": null}], "has_more": true}"#,
            #"{"object": "list", "data": [{"id": "cus_1"}, {"id": {"a": 1}}], "has_more": true}"#,
        ])
    func stripeBroken(secondPage: String) async throws {
        try await withTestUpstream { upstream in
            let broken = SharedValue(false)
            upstream.route("/v1/customers") { request in
                if broken.value, request.query["starting_after"] != nil { return jsonAnswer(secondPage) }
                return Self.stripePage(after: request.query["starting_after"], limit: 3)
            }
            let fixture = try SyncFixture(
                toml: Self.customersTOML(upstream.url("/v1/customers"), pagination: Self.stripePagination))
            #expect(try await fixture.sync("customers").inserted == 8)
            broken.value = true
            let report = try await fixture.sync("customers")
            #expect(report.outcome == .failed)
            let error = report.error ?? ""
            #expect(error.contains("has_more_path (has_more) says true") || error.contains("last record has no"))
            #expect(error.hasSuffix("kept the stored data"))
            #expect(try fixture.rows("SELECT id FROM customers").count == 8)
        }
    }

    @Test("a last record repeating an earlier cursor is a loop, not an endless walk")
    func stripeLoop() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/v1/customers") { request in
                let first = request.query["starting_after"] == nil ? "cus_1" : "cus_3"
                return jsonAnswer(#"{"data": [{"id": "\#(first)"}, {"id": "cus_2"}], "has_more": true}"#)
            }
            let fixture = try SyncFixture(
                toml: Self.customersTOML(upstream.url("/v1/customers"), pagination: Self.stripePagination))
            let report = try await fixture.sync("customers")
            #expect(report.outcome == .failed)
            #expect(report.error?.contains("repeats an earlier cursor at id: the pagination loops") == true)
        }
    }

    /// The GraphQL server of ``GraphQLConnection`` over seven issues, or `failing` as its answer.
    static func graphQLAnswer(_ request: UpstreamRequest, failing: String? = nil) -> UpstreamResponse {
        if let failing { return jsonAnswer(failing) }
        return GraphQLConnection.answer(request, count: 7)
    }

    static func issuesTOML(_ url: String, body: String) -> String {
        GraphQLConnection.endpointTOML(url: url, bodyLine: "body = '''\(body)'''")
    }

    static let issuesQuery = GraphQLConnection.query

    @Test("GraphQL: a POST whose body's after variable takes each page's endCursor until hasNextPage is false")
    func graphQL() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/graphql") { Self.graphQLAnswer($0) }
            let fixture = try SyncFixture(toml: Self.issuesTOML(upstream.url("/graphql"), body: Self.issuesQuery))
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.inserted == 7 && report.pages == 3)
            let titles = try fixture.rows("SELECT title, author FROM issues ORDER BY number")
            #expect(titles.compactMap { $0.text("title") } == (1...7).map { "Issue \($0)" })
            #expect(titles.allSatisfy { $0.text("author") == "ann" })
            let bodies = upstream.requests.map { String(decoding: $0.body, as: UTF8.self) }
            // Every byte of the body goes out as written but the value at body_path.
            #expect(bodies.first == Self.issuesQuery)
            #expect(
                bodies.dropFirst().map { $0.replacingOccurrences(of: #""Y3Vyc29y3""#, with: "null") }.first
                    == Self.issuesQuery)
            #expect(bodies.last?.contains(#""after": "Y3Vyc29y6"}"#) == true)
            // A POST is never conditional, even when the answer had validators.
            upstream.route("/graphql") { request in
                var answer = Self.graphQLAnswer(request)
                answer.headers.append((name: "ETag", value: #""v1""#))
                return answer
            }
            #expect(try await fixture.sync("issues").outcome == .unchanged)
            let again = try await fixture.sync("issues")
            #expect(again.outcome == .unchanged && again.version == report.version, "the same answer changes nothing")
            #expect(upstream.requests.count == 9)
            #expect(upstream.requests.allSatisfy { $0.header("If-None-Match") == nil && $0.method == "POST" })
        }
    }

    static let errorList =
        #"[{"message": "Something went wrong\u001b[31m while executing your query.", "locations": [{"line": 1, "#
        + #""column": 2}]}, {"message": "second"}]"#

    @Test(
        "GraphQL: errors in a 200 fail the run with the first message, escaped, and keep the stored data",
        arguments: [
            #"{"data": null, "errors": \#(errorList)}"#,
            #"{"errors": \#(errorList)}"#,
            #"{"data": {"repository": {"issues": {"nodes": [], "pageInfo": {"hasNextPage": false}}}}, "errors": "#
                + #"\#(errorList)}"#,
            #"{"errors": \#(errorList), "data": {"repository": null}}"#,
        ])
    func graphQLErrors(answer: String) async throws {
        try await withTestUpstream { upstream in
            let failing = SharedValue<String?>(nil)
            upstream.route("/graphql") { Self.graphQLAnswer($0, failing: failing.value) }
            let fixture = try SyncFixture(toml: Self.issuesTOML(upstream.url("/graphql"), body: Self.issuesQuery))
            #expect(try await fixture.sync("issues").inserted == 7)
            failing.value = answer
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == #"issues: page 1: the GraphQL answer holds errors: "Something went wrong\x1b[31m while "#
                    + #"executing your query."; kept the stored data"#)
            #expect(try fixture.rows("SELECT number FROM issues").count == 7)
        }
    }
}
