import Foundation
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncServe

/// `GET /openapi.json` describes the read API as configured: one set of paths per endpoint, one record schema per
/// collection from its columns. (schemathesis checks the document against a live daemon in the syncd tests.)
@Suite("read API: the OpenAPI document")
struct OpenAPIDocumentTests {
    static func document(_ api: ReadAPIHarness) async throws -> [String: Any] {
        let answer = try await api.get("/openapi.json")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    }

    @Test("every endpoint has its paths; a collection's record schema follows its columns, nested and required")
    func paths() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let document = try await Self.document(api)
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            #expect(
                Set(paths.keys) == [
                    "/", "/healthz", "/metrics", "/openapi.json", "/v1/endpoints",
                    "/v1/endpoints/users/records", "/v1/endpoints/users/records/{id}", "/v1/endpoints/users/changes",
                    "/v1/endpoints/users/drift", "/rest/users",
                    "/v1/endpoints/regions/records", "/v1/endpoints/regions/records/{id}",
                    "/v1/endpoints/regions/changes", "/v1/endpoints/regions/drift", "/rest/regions",
                    "/v1/endpoints/flags/document",
                ])
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let user = try #require(schemas["users_record"] as? [String: Any])
            #expect(user["additionalProperties"] as? Bool == true)
            #expect(user["required"] as? [String] == ["id"])
            let properties = try #require(user["properties"] as? [String: [String: Any]])
            #expect(properties["id"]?["type"] as? [String] == ["integer", "string"])
            #expect(properties["active"]?["type"] == nil, "an optional column's value is kept as received")
            let row = try #require((schemas["users_row"] as? [String: Any])?["properties"] as? [String: [String: Any]])
            #expect(row["active"]?["type"] as? [String] == ["boolean", "null"])
            // Without a token, no security scheme; a request naming another Host may be a 421.
            #expect(document["security"] == nil)
            let list = try #require((paths["/rest/users"] as? [String: Any])?["get"] as? [String: Any])
            let responses = try #require(list["responses"] as? [String: Any])
            #expect(Set(responses.keys) == ["200", "304", "400", "404", "421", "503"])
            // The filters are the endpoint's own components, which both list routes refer to.
            let references = try #require(list["parameters"] as? [[String: String]]).compactMap { $0["$ref"] }
            #expect(references.contains("#/components/parameters/users.city"))
            let shared = try #require((document["components"] as? [String: Any])?["parameters"] as? [String: Any])
            let city = try #require(shared["users.city"] as? [String: Any])
            #expect(city["name"] as? String == "city" && city["in"] as? String == "query")
            let pattern = try #require((city["schema"] as? [String: Any])?["pattern"] as? String)
            let regex = try Regex(pattern)
            for good in ["eq.Oslo", "not.in.(Oslo,Lima)", "ilike.*os*", "is.null", "neq."] {
                #expect(good.wholeMatch(of: regex) != nil, "\(good)")
            }
            for bad in ["Oslo", "eq", "in.(a", "between.1.2"] {
                #expect(bad.wholeMatch(of: regex) == nil, "\(bad)")
            }
            let key = try #require(
                (((paths["/v1/endpoints/regions/records/{id}"] as? [String: Any])?["get"] as? [String: Any])?[
                    "parameters"] as? [[String: Any]])?.first)
            #expect((key["schema"] as? [String: Any])?["pattern"] as? String == "^[^,]*,[^,]*$")
        }
    }

    @Test("the document is kept until a reload, which describes the reloaded endpoints")
    func reload() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let first = try await api.get("/openapi.json").body
            #expect(try await api.get("/openapi.json").body == first)
            var configuration = fixture.configuration
            configuration.plans.removeAll { $0.name.name == "regions" }
            api.cache.reload(configuration)
            let paths = try #require(try await Self.document(api)["paths"] as? [String: Any])
            #expect(paths["/rest/regions"] == nil && paths["/rest/users"] != nil)
            // Shared parameters, headers and answers are written once and referred to from every endpoint's paths.
            let components = try #require(try await Self.document(api)["components"] as? [String: Any])
            #expect((components["parameters"] as? [String: Any])?["IfNoneMatch"] != nil)
            #expect((components["responses"] as? [String: Any])?["NotModified"] != nil)
            #expect((components["headers"] as? [String: Any])?["ETag"] != nil)
        }
    }

    @Test("with a token: a bearer scheme over everything, and 401 among every operation's answers")
    func bearer() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, token: "t0ken") { api in
            #expect(try await api.get("/openapi.json").status == 401)
            let answer = try await api.get("/openapi.json", headers: [("Authorization", "Bearer t0ken")])
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            #expect(document["security"] as? [[String: [String]]] == [["bearer": []]])
            let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: String]]
            #expect(schemes?["bearer"] == ["type": "http", "scheme": "bearer"])
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            for (path, item) in paths {
                let responses = item["get"]?["responses"] as? [String: Any]
                #expect(responses?["401"] != nil && responses?["421"] == nil, "\(path)")
            }
        }
    }

    @Test("a malformed query is a 400 even with If-None-Match: *, on the router and on the fast path")
    func preconditionsAfterValidity() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        for fastPath in [true, false] {
            try await ReadAPIHarness.with(fixture, fastPath: fastPath) { api in
                let etag = try #require(try await api.get("/v1/endpoints/users/records").header("ETag"))
                for header in ["*", etag] {
                    for query in ["limit=-2", "order=nope", "email=eq.x", "city=Oslo", "select=nope"] {
                        let answer = try await api.get(
                            "/v1/endpoints/users/records?\(query)", headers: [("If-None-Match", header)])
                        #expect(answer.status == 400, "\(query) \(header) fast path: \(fastPath)")
                    }
                    let good = try await api.get(
                        "/v1/endpoints/users/records?city=eq.Oslo", headers: [("If-None-Match", header)])
                    #expect(good.status == 304)
                }
            }
        }
    }

    @Test("a document over 4 MiB, from many endpoints, is built once for several requests and again after a reload")
    func largeDocumentBuiltOnce() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            var configuration = fixture.configuration
            let users = try #require(configuration.plans.first { $0.name.name == "users" })
            for number in 1...800 {
                var copy = users
                copy.name = try SQLIdentifier(validating: "users_\(number)")
                configuration.plans.append(copy)
            }
            api.cache.reload(configuration)
            let before = api.model.openAPIDocuments.withLock { $0.builds }
            var bodies: Set<String> = []
            for _ in 0..<3 {
                let answer = try await api.get("/openapi.json")
                #expect(answer.status == 200)
                bodies.insert(answer.body)
            }
            #expect(bodies.count == 1)
            #expect((bodies.first?.utf8.count ?? 0) > 4 << 20)
            #expect(api.model.openAPIDocuments.withLock { $0.builds } == before + 1)
            api.cache.reload(configuration)
            #expect(try await api.get("/openapi.json").status == 200)
            #expect(api.model.openAPIDocuments.withLock { $0.builds } == before + 2)
        }
    }
}
