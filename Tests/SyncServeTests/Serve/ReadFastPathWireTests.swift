import Foundation
import SyncServe
import SyncTesting
import Testing

@testable import SyncCore

/// The fast path reads requests off the wire in front of NIO's HTTP/1 codec: a head split across reads is still its,
/// the router's requests between its own are answered in order, and once a connection sends what it does not read,
/// the codec gets every byte after.
@Suite("read API: the fast path on the wire")
struct ReadFastPathWireTests {
    static func request(_ path: String, port: Int, method: String = "GET", _ fields: [(String, String)] = []) -> String
    {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    static func port(_ api: ReadAPIHarness) throws -> Int {
        try #require(Int(ReadAPIHostTests.port(api)))
    }

    /// One request on a connection of its own, its answer as it came.
    static func exchange(_ api: ReadAPIHarness, _ path: String, _ fields: [(String, String)]) async throws
        -> RawResponse
    {
        let port = try port(api)
        return try await withRawConnection(port: port) { connection in
            try await connection.send(request(path, port: port, fields))
            return try await connection.readResponse()
        }
    }

    /// Runs `body` with a read API whose record 2 is kept (so the fast path answers it), its port and that record's
    /// path.
    static func withKeptRecord(
        fastPath: Bool = true, _ body: (ReadAPIHarness, Int, String) async throws -> Void
    ) async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, fastPath: fastPath) { api in
            let record = "/v1/endpoints/users/records/2"
            _ = try await api.get(record)
            try await body(api, try port(api), record)
        }
    }

    @Test("a head that arrives in pieces, a byte at a time at first, is still the fast path's")
    func inPieces() async throws {
        try await Self.withKeptRecord { api, port, record in
            let before = api.fastPathAnswers.count
            let text = Self.request(record, port: port)
            let answer = try await withRawConnection(port: port) { connection in
                for piece in text.utf8.prefix(20) { try await connection.send(String(UnicodeScalar(piece))) }
                try await connection.send(String(text.utf8.dropFirst(20).dropLast(3))!)
                try await connection.send(String(text.utf8.suffix(3))!)
                return try await connection.readResponse()
            }
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix(#"{"id": 2, "name": "Bob""#))
            #expect(api.fastPathAnswers.count == before + 1)
        }
    }

    @Test("HEAD and Connection go to the router between the fast path's GETs, in order, and the fast path goes on")
    func routerBetween() async throws {
        try await Self.withKeptRecord { api, port, record in
            let before = api.fastPathAnswers.count
            try await withRawConnection(port: port) { connection in
                try await connection.send(
                    Self.request(record, port: port) + Self.request(record, port: port, method: "HEAD")
                        + Self.request(record, port: port, [("Connection", "TE"), ("TE", "trailers")]))
                let get = try await connection.readResponse()
                let head = try await connection.readResponse(hasBody: false)
                let afterHead = try await connection.readResponse()
                #expect(get.status == 200 && head.status == 200 && afterHead.status == 200)
                #expect(head.header("Content-Length") == get.header("Content-Length"))
                #expect(afterHead.body == get.body)
                // The first GET was the fast path's; the two after it the router's.
                #expect(api.fastPathAnswers.count == before + 1)
                // Once the router has answered, the next GET on the connection is the fast path's again (a
                // keep-alive changes nothing).
                try await connection.send(Self.request(record, port: port, [("Connection", "keep-alive")]))
                #expect(try await connection.readResponse().body == get.body)
                #expect(api.fastPathAnswers.count == before + 2)
            }
        }
    }

    @Test("after a request with a body, or a head longer than the fast path reads, the router answers the connection")
    func passedOn() async throws {
        try await Self.withKeptRecord { api, port, record in
            let before = api.fastPathAnswers.count
            try await withRawConnection(port: port) { connection in
                // The body looks like a request: it is the POST's, never answered.
                let body = Self.request("/v1/endpoints/users/records/3", port: port)
                try await connection.send(
                    Self.request(record, port: port, method: "POST", [("Content-Length", "\(body.utf8.count)")]) + body
                        + Self.request(record, port: port))
                #expect(try await connection.readResponse().status == 405)
                let get = try await connection.readResponse()
                #expect(String(decoding: get.body, as: UTF8.self).hasPrefix(#"{"id": 2, "name": "Bob""#))
                try await connection.send(Self.request(record, port: port))
                #expect(try await connection.readResponse().body == get.body)
            }
            #expect(api.fastPathAnswers.count == before)
            let padding = String(repeating: "p", count: RequestHead.maxLength)
            try await withRawConnection(port: port) { connection in
                try await connection.send(Self.request(record, port: port, [("X-Padding", padding)]))
                let long = try await connection.readResponse()
                #expect(String(decoding: long.body, as: UTF8.self).hasPrefix(#"{"id": 2, "name": "Bob""#))
                try await connection.send(Self.request(record, port: port))
                #expect(try await connection.readResponse().body == long.body)
            }
            #expect(api.fastPathAnswers.count == before)
        }
    }
}
