import Foundation
import SyncTesting
import Testing

@testable import SyncCore

/// `method`, `body`, `body_file`, and the cursor's `from` and `body_path`: read from syncd.toml and from Swift by the
/// same rules, each problem at its key's line.
@Suite("Configuration: POST bodies and cursors from the last record")
struct ConfigurationRequestTests {
    static func endpoint(_ lines: String, pagination: String? = nil) -> String {
        """
        [[endpoint]]
        name = "issues"
        url = "https://api.example.com/graphql"
        records = "data.nodes"
        primary_key = "id"
        \(pagination.map { "pagination = \($0)" } ?? "")
        \(lines)
        [endpoint.columns]
        id = "id"
        """
    }

    static let graphQL = #"body = '''{"query": "{ nodes(after: $after) { id } }", "variables": {"after": null}}'''"#
    static let bodyCursor =
        #"{ type = "cursor", cursor_path = "data.pageInfo.endCursor", body_path = "variables.after" }"#

    @Test("a last-record cursor and a GraphQL POST are read as written")
    func valid() throws {
        let stripe = try SyncConfiguration.parse(
            Self.endpoint(
                "",
                pagination: #"{ type = "cursor", from = "last_record", cursor_path = "id", param = "starting_after" }"#),
            sourcePath: "syncd.toml")
        let customers = try #require(stripe.plans.first)
        #expect(
            customers.pagination?.kind
                == .cursor(path: try JSONPath(parsing: "id"), from: .lastRecord, to: .query("starting_after")))
        #expect(customers.pagination?.lastRecordPath == (try JSONPath(parsing: "id")))
        #expect(customers.pagination?.capturedPaths == [], "a last record's path is no path of the envelope")
        #expect(customers.method == .get && customers.body == nil)

        let parsed = try SyncConfiguration.parse(
            Self.endpoint("method = \"POST\"\n" + Self.graphQL, pagination: Self.bodyCursor), sourcePath: "syncd.toml")
        let issues = try #require(parsed.plans.first)
        #expect(issues.method == .post && issues.body?.isGraphQL == true)
        #expect(issues.pagination?.bodyPath == (try JSONPath(parsing: "variables.after")))
        let replaced = try #require(issues.body?.replacing(try JSONPath(parsing: "variables.after"), with: #""Y3""#))
        #expect(
            String(decoding: replaced, as: UTF8.self)
                == #"{"query": "{ nodes(after: $after) { id } }", "variables": {"after": "Y3"}}"#)
    }

    @Test("body_file is read against the configuration's directory, at most 1 MiB of JSON")
    func bodyFile() throws {
        try withTemporaryDirectory { directory in
            _ = try writeFile(#"{"query": "{ a }", "variables": {"after": null}}"#, named: "q.json", in: directory)
            let text = Self.endpoint("method = \"POST\"\nbody_file = \"q.json\"", pagination: Self.bodyCursor)
            let configuration = try SyncConfiguration.parse(text, sourcePath: directory + "/syncd.toml")
            #expect(configuration.plans.first?.body?.isGraphQL == true)
            let missing = Self.endpoint("method = \"POST\"\nbody_file = \"nope.json\"")
            #expect(
                configurationProblems(missing, sourcePath: directory + "/syncd.toml") == [
                    "\(directory)/syncd.toml:8: [[endpoint]] \"issues\": body_file \"\(directory)/nope.json\" no such file"
                ])
            _ = try writeFile(String(repeating: " ", count: (1 << 20) + 1), named: "big.json", in: directory)
            let big = Self.endpoint("method = \"POST\"\nbody_file = \"big.json\"")
            #expect(
                configurationProblems(big, sourcePath: directory + "/syncd.toml") == [
                    "\(directory)/syncd.toml:8: [[endpoint]] \"issues\": body_file \"\(directory)/big.json\" is larger "
                        + "than 1 MiB"
                ])
        }
    }

    @Test("bad requests and cursors are refused with the line and the key")
    func problems() {
        let cases: [(lines: String, pagination: String?, message: String)] = [
            (#"method = "PUT""#, nil, #"7: [[endpoint]] "issues": method must be "GET" or "POST""#),
            (
                Self.graphQL, nil,
                #"7: [[endpoint]] "issues": body is sent only with method = "POST"; add method = "POST""#
            ),
            (
                "method = \"POST\"\nbody = '{\"query\": '", nil,
                #"8: [[endpoint]] "issues": body must be one JSON value; it is truncated: it ends inside an object at byte 10"#
            ),
            (
                "method = \"POST\"\nbody = '{}'\nbody_file = \"x.json\"", nil,
                #"9: [[endpoint]] "issues": set body or body_file, not both"#
            ),
            (
                #"method = "POST""#, Self.bodyCursor,
                #"6: [[endpoint]] "issues": pagination: body_path needs a request body (body or body_file) holding a "#
                    + #"value there, such as "after": null"#
            ),
            (
                "method = \"POST\"\nbody = '{\"variables\": {}}'", Self.bodyCursor,
                #"6: [[endpoint]] "issues": pagination: body_path "variables.after" names no value of the request "#
                    + "body; write one there, such as null for the first page"
            ),
            (
                "", #"{ type = "cursor", cursor_path = "id" }"#,
                #"6: [[endpoint]] "issues": pagination: type "cursor" needs "param" (a query parameter) or "#
                    + #""body_path" (a value of the request body)"#
            ),
            (
                "", #"{ type = "cursor", cursor_path = "id", param = "a", body_path = "b" }"#,
                #"6: [[endpoint]] "issues": pagination: set param or body_path, not both"#
            ),
            (
                "", #"{ type = "cursor", from = "last", cursor_path = "id", param = "a" }"#,
                #"6: [[endpoint]] "issues": pagination: from must be "body" (a value outside the records) or "#
                    + #""last_record" (a value of each page's last record)"#
            ),
            (
                "", #"{ type = "link", from = "last_record" }"#,
                #"6: [[endpoint]] "issues": pagination: unknown key "from" for type "link""#
            ),
        ]
        for (lines, pagination, message) in cases {
            #expect(
                configurationProblems(Self.endpoint(lines, pagination: pagination)) == ["syncd.toml:" + message],
                "\(lines) \(pagination ?? "")")
        }
    }

    @Test("SyncEndpoint takes the same options and refuses the same mistakes")
    func swift() throws {
        var issues = SyncEndpoint(
            name: "issues", url: "https://api.example.com/graphql", records: "data.nodes", primaryKey: ["id"],
            columns: [.init("id")])
        issues.method = .post
        issues.body = #"{"query": "{ a }", "variables": {"after": null}}"#
        issues.pagination = .cursor(path: "data.pageInfo.endCursor", bodyPath: "variables.after")
        var problems: [String] = []
        let compiled = try #require(issues.compile(into: &problems))
        #expect(problems.isEmpty && compiled.body?.isGraphQL == true && compiled.method == .post)

        var customers = issues
        customers.method = .get
        customers.body = nil
        customers.pagination = .cursor(path: "id", param: "starting_after", from: .lastRecord, hasMorePath: "has_more")
        #expect(customers.compile(into: &problems)?.pagination?.lastRecordPath == (try JSONPath(parsing: "id")))

        var broken = issues
        broken.method = .get
        broken.body = "{"
        #expect(broken.compile(into: &problems) == nil)
        #expect(
            problems == [
                #"body is sent only with method = "POST"; add method = "POST""#,
                "body must be one JSON value; it is truncated: it ends inside an object at byte 1",
            ])
    }
}
