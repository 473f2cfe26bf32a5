import Foundation
import SyncServe
import SyncTesting
import Testing

@testable import SyncCore

/// The event loop's fast path (hot `GET`s answered from memory) against the router it stands in front of: the same
/// answers, in the same order, and everything unusual left to the router.
@Suite("read API: the fast path")
struct ReadFastPathTests {
    /// The requests the fast path takes once their answers are kept, with the headers they carry.
    static func hotRequests(etag: String, lastModified: String, listTag: String) -> [(String, [(String, String)])] {
        [
            ("/v1/endpoints/users/records/1", []),
            ("/v1/endpoints/users/records/1", [("If-None-Match", etag)]),
            ("/v1/endpoints/users/records/1", [("If-None-Match", etag), ("Connection", "keep-alive")]),
            ("/v1/endpoints/users/records/1", [("If-None-Match", "\"other\"")]),
            ("/v1/endpoints/users/records/1", [("If-Modified-Since", lastModified)]),
            ("/v1/endpoints/users/records/%31", []),
            ("/v1/endpoints/users/records?order=id.desc&limit=2", []),
            ("/v1/endpoints/users/records", [("If-None-Match", listTag)]),
            ("/rest/users?id=gt.2", [("Prefer", "count=exact")]),
            ("/rest/users?select=id,name&city=eq.Oslo", []),
            ("/v1/endpoints/regions/records/no,03", []),
        ]
    }

    @Test("each hot request gets the router's answer, byte for byte but the Date value, and the fast path sends it")
    func sameAnswers() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, fastPath: false) { router in
            try await ReadAPIHarness.with(fixture, fastPath: true) { fast in
                let first = try await router.get("/v1/endpoints/users/records/1")
                let list = try await router.get("/v1/endpoints/users/records")
                let requests = Self.hotRequests(
                    etag: try #require(first.header("ETag")), lastModified: try #require(first.header("Last-Modified")),
                    listTag: try #require(list.header("ETag")))
                // The first round builds what each server keeps; the second is answered from it.
                for (path, headers) in requests {
                    _ = try await ReadFastPathWireTests.exchange(router, path, headers)
                    _ = try await ReadFastPathWireTests.exchange(fast, path, headers)
                }
                let before = fast.fastPathAnswers.count
                for (path, headers) in requests {
                    let expected = try await ReadFastPathWireTests.exchange(router, path, headers)
                    let answer = try await ReadFastPathWireTests.exchange(fast, path, headers)
                    #expect(answer.statusLine == expected.statusLine, "\(path) \(headers)")
                    // The Date value is the wall clock's; where it stands is not.
                    func withoutDate(_ response: RawResponse) -> [String] {
                        response.headers.map { $0.name == "Date" ? "Date" : "\($0.name): \($0.value)" }
                    }
                    #expect(withoutDate(answer) == withoutDate(expected), "\(path) \(headers)")
                    #expect(answer.body == expected.body, "\(path) \(headers)")
                }
                #expect(fast.fastPathAnswers.count - before == requests.count)
                #expect(router.fastPathAnswers.count == 0)
                // The fast path's answers are counted under the router's route labels.
                let metrics = try await fast.get("/metrics").body
                #expect(
                    metrics.contains(
                        #"syncd_http_requests_total{route="/v1/endpoints/{name}/records/{id}",status="304"}"#))
                #expect(metrics.contains(#"syncd_http_requests_total{route="/rest/{name}",status="200"}"#))
            }
        }
    }

    @Test(
        "HEAD, a missing token, a foreign Host, other methods and paths in another form go to the router, kept or not")
    func leftToTheRouter() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let port = ReadAPIHostTests.port(api)
            _ = try await api.get("/v1/endpoints/users/records/1")
            let before = api.fastPathAnswers.count
            #expect(try await api.get("/v1/endpoints/users/records/1", method: "HEAD").status == 200)
            #expect(
                try await api.get("/v1/endpoints/users/records/1", headers: [("Host", "evil.example:\(port)")]).status
                    == 421)
            #expect(try await api.get("/v1/endpoints/users/records/1", method: "DELETE").status == 405)
            #expect(try await api.get("/v1/endpoints/users/records/1/").status == 200)
            #expect(try await api.get("/v1/endpoints/users//records/1").status == 200)
            #expect(try await api.get("/v1/endpoints/flags/records/1").status == 404)
            #expect(try await api.get("/v1/endpoints/nobody/records/1").status == 404)
            #expect(api.fastPathAnswers.count == before)
        }
        try await ReadAPIHarness.with(fixture, token: "t0ken") { api in
            let bearer = [("Authorization", "Bearer t0ken")]
            _ = try await api.get("/v1/endpoints/users/records/1", headers: bearer)
            let before = api.fastPathAnswers.count
            let refused = try await api.get(
                "/v1/endpoints/users/records/1", headers: [("Authorization", "Bearer guess")])
            #expect(refused.status == 401)
            #expect(!refused.body.contains("Ann"))
            #expect(try await api.get("/v1/endpoints/users/records/1").status == 401)
            #expect(api.fastPathAnswers.count == before)
            #expect(try await api.get("/v1/endpoints/users/records/1", headers: bearer).status == 200)
            #expect(api.fastPathAnswers.count == before + 1)
        }
    }

    @Test("pipelined requests are answered in the order they came, when the router answers one of them")
    func pipelinedOrder() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let port = try #require(Int(ReadAPIHostTests.port(api)))
            _ = try await api.get("/v1/endpoints/users/records/2")
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let answers = try await withRawConnection(port: port) { connection in
                try await connection.send(
                    "GET /v1/endpoints/users/records/2 HTTP/1.1\r\n\(host)\r\n"
                        + "GET /healthz HTTP/1.1\r\n\(host)\r\n"
                        + "GET /v1/endpoints/users/records/2 HTTP/1.1\r\n\(host)\r\n"
                        + "GET /v1/endpoints/users/records/3 HTTP/1.1\r\n\(host)\r\n"
                        + "GET /v1/endpoints/users/records/2 HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
                var answers: [String] = []
                for _ in 0..<5 {
                    let response = try await connection.readResponse()
                    answers.append("\(response.status) \(String(decoding: response.body, as: UTF8.self))")
                }
                // Connection: close is the router's: it closes once that answer is out.
                #expect(try await connection.readToEnd().isEmpty)
                return answers
            }
            #expect(answers.count == 5)
            #expect(answers[0].hasPrefix("200 {\"id\": 2, \"name\": \"Bob\""))
            #expect(answers[1].hasPrefix("200 {\"status\":\"ok\""))
            #expect(answers[2] == answers[0])
            #expect(answers[3].hasPrefix("200 {\"id\": 3, \"name\": \"Cyd\""))
            #expect(answers[4] == answers[0])
        }
    }

    @Test("a commit made after an answer was kept is seen by the next request")
    func commitSeen() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let before = try await api.get("/v1/endpoints/users/records/1")
            #expect(try await api.get("/v1/endpoints/users/records/1").body == before.body)
            let answered = api.fastPathAnswers.count
            #expect(answered >= 1)
            try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 4], renamed: [1: "Ada"], generation: 1)
            _ = try await fixture.sync("users")
            let after = try await api.get("/v1/endpoints/users/records/1")
            #expect(after.body.contains(#""name": "Ada""#))
            #expect(after.header("ETag") != before.header("ETag"))
            // Kept again once rebuilt: the request after is the fast path's.
            #expect(try await api.get("/v1/endpoints/users/records/1").body == after.body)
            #expect(api.fastPathAnswers.count == answered + 1)
        }
    }
}
