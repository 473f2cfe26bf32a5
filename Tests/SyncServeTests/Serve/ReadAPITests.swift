import Foundation
import SyncServe
import SyncTesting
import Testing

@testable import SyncCore

/// The read API over a real database and a real socket: routes, PostgREST filters, ETags and 304s.
@Suite("read API: routes, filters and revalidation")
struct ReadAPITests {
    @Test("records: PostgREST filters, order, limit, offset and select, as the original JSON or typed columns")
    func records() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let oslo = try await api.get("/v1/endpoints/users/records?city=eq.Oslo&order=id.desc")
            #expect(oslo.status == 200)
            #expect(oslo.header("Content-Type") == "application/json")
            #expect(
                oslo.body == #"[{"id": 3, "name": "Cyd", "city": "Oslo", "active": true},"#
                    + #"{"id": 1, "name": "Ann", "city": "Oslo", "active": true}]"#)

            let some = try await api.get("/v1/endpoints/users/records?id=in.(1,2,4)&order=name.desc&limit=2&offset=1")
            #expect(some.body.contains("\"Bob\"") && some.body.contains("\"Ann\"") && !some.body.contains("Dee"))

            let typed = try await api.get("/rest/users?select=id,active&active=is.false&id=not.eq.4")
            #expect(typed.body == #"[{"id":2,"active":false}]"#)

            let like = try await api.get("/rest/users?name=like.*y*&select=name")
            #expect(like.body == #"[{"name":"Cyd"}]"#)
            let ilike = try await api.get("/rest/users?city=ilike.GWEN*&select=id")
            #expect(ilike.body == #"[{"id":4}]"#)
            // postgrest-py's .ilike("city", "%gwen%") sends the percent signs encoded.
            let percent = try await api.get("/rest/users?city=ilike.%25gwen%25&select=id")
            #expect(percent.body == #"[{"id":4}]"#)
            let spaced = try await api.get("/rest/users?city=in.(%22Oslo%22,Lima)&select=id&order=id")
            #expect(spaced.body == #"[{"id":1},{"id":2},{"id":3}]"#)

            // Same answer, same bytes, from memory the second time.
            let again = try await api.get("/v1/endpoints/users/records?city=eq.Oslo&order=id.desc")
            #expect(again.body == oslo.body)
            #expect(again.header("ETag") == oslo.header("ETag"))
        }
    }

    @Test("bad parameters are 400 problems naming the parameter; unknown endpoints, records and routes are 404")
    func problems() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let cases: [(String, Int, String?)] = [
                ("/v1/endpoints/users/records?email=eq.x", 400, "email"),
                ("/v1/endpoints/users/records?city=Oslo", 400, "city"),
                ("/v1/endpoints/users/records?city=between.1", 400, "city"),
                ("/v1/endpoints/users/records?limit=-1", 400, "limit"),
                ("/v1/endpoints/users/records?limit=ten", 400, "limit"),
                ("/v1/endpoints/users/records?offset=x", 400, "offset"),
                ("/v1/endpoints/users/records?order=name.sideways", 400, "order"),
                ("/v1/endpoints/users/records?order=email", 400, "order"),
                ("/v1/endpoints/users/records?select=id,email", 400, "select"),
                ("/v1/endpoints/users/records?id=eq.abc", 400, "id"),
                ("/v1/endpoints/users/records?id=in.(1,2", 400, "id"),
                ("/v1/endpoints/users/records?or=(id.eq.1,id.eq.2)", 400, "or"),
                ("/v1/endpoints/users/changes?since=-3", 400, "since"),
                ("/v1/endpoints/users/records/abc", 400, "id"),
                ("/v1/endpoints/nope/records", 404, nil),
                ("/rest/nope", 404, nil),
                ("/v1/endpoints/users/records/99", 404, nil),
                ("/v1/endpoints/flags/records", 404, nil),
                ("/v1/endpoints/users/document", 404, nil),
                ("/v2/anything", 404, nil),
            ]
            for (path, status, parameter) in cases {
                let answer = try await api.get(path)
                #expect(answer.status == status, "\(path): \(answer.body)")
                #expect(answer.header("Content-Type") == "application/problem+json", "\(path)")
                let problem = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
                #expect(problem?["status"] as? Int == status, "\(path)")
                let detail = problem?["detail"] as? String ?? ""
                #expect(detail.hasSuffix(".") && !detail.isEmpty, "\(path): \(detail)")
                #expect(problem?["parameter"] as? String == parameter, "\(path): \(answer.body)")
            }
            let post = try await api.get("/rest/users", method: "POST")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
            let problem = try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any]
            #expect(problem?["status"] as? Int == 405)
            #expect(problem?["title"] as? String == "Method Not Allowed")
        }
    }

    @Test("one record by key, composite keys as a,b, with the ETag syncd get prints")
    func oneRecord() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let expected = try fixture.read { database in
            try RecordReader(database: database, endpoint: try fixture.endpoint("users")).record(key: ["2"])
        }
        try await ReadAPIHarness.with(fixture) { api in
            let bob = try await api.get("/v1/endpoints/users/records/2")
            #expect(bob.status == 200)
            #expect(bob.body == #"{"id": 2, "name": "Bob", "city": "Lima", "active": false}"#)
            #expect(bob.header("ETag") == expected?.etag)
            let lima = try await api.get("/v1/endpoints/regions/records/pe,15")
            #expect(lima.body == #"{"country": "pe", "code": "15", "name": "Lima"}"#)
            let half = try await api.get("/v1/endpoints/regions/records/pe")
            #expect(half.status == 400)
            let flags = try await api.get("/v1/endpoints/flags/document")
            #expect(flags.status == 200)
            #expect(flags.body == #"{"dark_mode": true}"#)
        }
    }

    @Test("If-None-Match (lists, W/, *) and If-Modified-Since give 304 without a body; a malformed one gives 200")
    func revalidation() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            for path in [
                "/v1/endpoints/users/records/3", "/v1/endpoints/users/records?city=eq.Oslo", "/rest/users",
                "/v1/endpoints/users/changes?since=0", "/v1/endpoints/flags/document",
            ] {
                let first = try await api.get(path)
                let etag = try #require(first.header("ETag"), "\(path)")
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
                let lastModified = try #require(first.header("Last-Modified"), "\(path)")
                for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                    let again = try await api.get(path, headers: [("If-None-Match", header)])
                    #expect(again.status == 304, "\(path) with \(header)")
                    #expect(again.body.isEmpty)
                    #expect(again.header("ETag") == etag)
                    #expect(again.header("Cache-Control") != nil)
                }
                for header in ["\"other\"", "garbage", "W/", "\"unterminated"] {
                    let fresh = try await api.get(path, headers: [("If-None-Match", header)])
                    #expect(fresh.status == 200, "\(path) with \(header)")
                    #expect(fresh.body == first.body)
                }
                let since = try await api.get(path, headers: [("If-Modified-Since", lastModified)])
                #expect(since.status == 304, "\(path)")
                let before = try await api.get(path, headers: [("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")])
                #expect(before.status == 200, "\(path)")
                // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
                let both = try await api.get(
                    path, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", lastModified)])
                #expect(both.status == 200, "\(path)")
                let head = try await api.get(path, method: "HEAD")
                #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == etag, "\(path)")
            }
        }
    }

    @Test("a sync in between is seen by the next request: new body, new ETag; changes since a version mirror it")
    func changesAfterSync() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let before = try await api.get("/v1/endpoints/users/records")
            let oldTag = try #require(before.header("ETag"))
            let everything = try await api.get("/v1/endpoints/users/changes?since=0")
            let all = try #require(try JSONSerialization.jsonObject(with: Data(everything.body.utf8)) as? [String: Any])
            #expect((all["changed"] as? [Any])?.count == 4)
            let version = try #require(all["version"] as? Int)

            // Bob renamed, Dee deleted, Eve added.
            try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 5], renamed: [2: "Rob"], generation: 1)
            _ = try await fixture.sync("users")

            let after = try await api.get("/v1/endpoints/users/records")
            #expect(after.header("ETag") != oldTag)
            #expect(after.body.contains("Rob") && after.body.contains("Eve") && !after.body.contains("Dee"))
            let stale = try await api.get("/v1/endpoints/users/records", headers: [("If-None-Match", oldTag)])
            #expect(stale.status == 200)

            let delta = try await api.get("/v1/endpoints/users/changes?since=\(version)")
            let changes = try #require(try JSONSerialization.jsonObject(with: Data(delta.body.utf8)) as? [String: Any])
            #expect(changes["version"] as? Int == version + 1)
            let changed = (changes["changed"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
            #expect(changed == [2, 5])
            #expect(changes["deleted"] as? [Int] == [4])
            let caughtUp = try await api.get("/v1/endpoints/users/changes?since=\(version + 1)")
            #expect(caughtUp.body == "{\"version\":\(version + 1),\"changed\":[],\"deleted\":[]}")
        }
    }
}
