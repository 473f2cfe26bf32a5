import Foundation
import NIOCore
import SyncServe
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSupport

/// A local attacker's connections: half-sent heads, silent connections and malformed heads are each closed or
/// answered, on both the fast path and the router, so that none holds a descriptor for long.
@Suite("read API: connections under a local attacker")
struct ReadAPIConnectionTests {
    /// Short deadlines, checked often, so that a test waits fractions of a second for what it asserts.
    static func limits(header: Double = 60, idle: Double = 60) -> ConnectionLimits {
        ConnectionLimits(
            header: .milliseconds(Int64(header * 1000)), idle: .milliseconds(Int64(idle * 1000)), send: .seconds(60),
            tick: .milliseconds(20))
    }

    /// What the server sends until it closes the connection: a test whose deadline does not close it waits here.
    static func closedByServer(_ connection: inout RawConnection) async throws -> [UInt8] {
        try await connection.readToEnd()
    }

    @Test(
        "a head that never ends is closed at the header timeout, on the fast path and the router",
        arguments: [
            true, false,
        ])
    func halfSentHead(fastPath: Bool) async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, fastPath: fastPath, limits: Self.limits(header: 0.2)) { api in
            let port = try ReadFastPathWireTests.port(api)
            let bytes = try await withRawConnection(port: port) { connection in
                try await connection.send("GET /v1/endpoints/users/records/2 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
                return try await Self.closedByServer(&connection)
            }
            #expect(bytes.isEmpty)
        }
    }

    @Test("a connection that sends nothing is closed at the idle timeout")
    func idle() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        // That the deadline runs again from each answer, ConnectionDeadlinesTests shows on injected instants: here a
        // request sent right after connecting would race the deadline on a loaded machine.
        try await ReadAPIHarness.with(fixture, limits: Self.limits(idle: 0.2)) { api in
            let port = try ReadFastPathWireTests.port(api)
            let silent = try await withRawConnection(port: port) { connection in
                try await Self.closedByServer(&connection)
            }
            #expect(silent.isEmpty)
        }
    }

    @Test(
        "two Host fields, or none in HTTP/1.1, are answered 400 and the connection closed; HTTP/1.0 needs none",
        arguments: [true, false])
    func hostFields(fastPath: Bool) async throws {
        try await ReadFastPathWireTests.withKeptRecord(fastPath: fastPath) { api, port, record in
            let host = "Host: 127.0.0.1:\(port)\r\n"
            for head in [
                "GET \(record) HTTP/1.1\r\n\(host)\(host)\r\n", "GET \(record) HTTP/1.1\r\n\r\n",
                "GET \(record) HTTP/1.1\r\n\(host)Host: example.com\r\n\r\n",
            ] {
                let (answer, rest) = try await withRawConnection(port: port) { connection in
                    try await connection.send(head)
                    let answer = try await connection.readResponse()
                    return (answer, try await Self.closedByServer(&connection))
                }
                #expect(answer.status == 400, "\(head)")
                #expect(answer.header("Content-Type") == "application/problem+json")
                #expect(answer.header("Connection") == "close")
                #expect(String(decoding: answer.body, as: UTF8.self).contains(#""parameter":"Host""#))
                #expect(rest.isEmpty)
            }
            let old = try await withRawConnection(port: port) { connection in
                try await connection.send("GET \(record) HTTP/1.0\r\n\r\n")
                return try await connection.readResponse()
            }
            #expect(old.status == 200)
        }
    }

    @Test("a request refused for its Host is answered after the requests before it on the connection")
    func hostRefusalInOrder() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let port = try ReadFastPathWireTests.port(api)
            let statuses = try await withRawConnection(port: port) { connection in
                // The first goes to the router (the fast path takes no /healthz); the second is refused behind it.
                try await connection.send(
                    ReadFastPathWireTests.request("/healthz", port: port) + "GET /healthz HTTP/1.1\r\n\r\n")
                let first = try await connection.readResponse()
                let second = try await connection.readResponse()
                return [first.status, second.status]
            }
            #expect(statuses == [200, 400])
        }
    }

    @Test(
        "a head whose lines end in bare LFs is answered 400 and closed, on the fast path and the router",
        arguments: [true, false])
    func bareLineFeeds(fastPath: Bool) async throws {
        try await ReadFastPathWireTests.withKeptRecord(fastPath: fastPath) { _, port, record in
            let (answer, rest) = try await withRawConnection(port: port) { connection in
                try await connection.send("GET \(record) HTTP/1.1\nHost: 127.0.0.1:\(port)\n\n")
                let answer = try await connection.readResponse()
                return (answer, try await Self.closedByServer(&connection))
            }
            // NIO's decoder refuses bare LFs (RFC 9112 §2.2 lets a server refuse them); the fast path, which reads
            // only CRLFs, hands such a head to it at once instead of waiting for a CRLF CRLF that never comes.
            #expect(answer.status == 400)
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("each line must end in CRLF"))
            #expect(rest.isEmpty)
        }
    }

    @Test("a head over 80 KiB is answered with a problem 400 naming the limit, after the answers owed before it")
    func oversizeHead() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let port = try ReadFastPathWireTests.port(api)
            let (first, second, rest) = try await withRawConnection(port: port) { connection in
                let long = "/v1/endpoints/users/records?name=eq." + String(repeating: "x", count: 84_000)
                try await connection.send(
                    ReadFastPathWireTests.request("/healthz", port: port)
                        + ReadFastPathWireTests.request(long, port: port))
                let first = try await connection.readResponse()
                let second = try await connection.readResponse()
                return (first, second, try await Self.closedByServer(&connection))
            }
            #expect(first.status == 200)
            #expect(second.status == 400)
            #expect(second.header("Content-Type") == "application/problem+json")
            #expect(String(decoding: second.body, as: UTF8.self).contains("larger than 80 KiB"))
            #expect(rest.isEmpty)
        }
    }

    @Test("the bearer token a reload replaces is refused from the next request on, on the fast path and the router")
    func rotatedToken() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, token: "old-secret") { api in
            let record = "/v1/endpoints/users/records/2"
            let old = [("Authorization", "Bearer old-secret")]
            let new = [("Authorization", "Bearer new-secret")]
            #expect(try await api.get(record, headers: old).status == 200)
            #expect(try await api.get(record, headers: old).status == 200)  // kept: the fast path's
            #expect(try await api.get("/v1/endpoints", headers: old).status == 200)  // the router's
            try #require(api.token).replace(with: "new-secret")
            #expect(try await api.get(record, headers: old).status == 401)
            #expect(try await api.get("/v1/endpoints", headers: old).status == 401)
            #expect(try await api.get(record, headers: new).status == 200)
            #expect(try await api.get("/v1/endpoints", headers: new).status == 200)
        }
    }

    @Test("a second server refuses a Unix socket a live one listens on, and takes over a stale one")
    func unixSocketInUse() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let socket = files.file("read.sock")
        try await ReadAPIHarness.with(fixture, listen: .unix(path: socket)) { api in
            var refusal: UnixSocketFile.Problem?
            do throws(UnixSocketFile.Problem) { try UnixSocketFile.prepare(at: socket) } catch { refusal = error }
            #expect(refusal == .inUse(path: socket))
            // The first one still answers on its socket.
            let answer = try await api.get("/healthz")
            #expect(answer.status == 200)
            var status = stat()
            #expect(stat(socket, &status) == 0)
            #expect(Int(status.st_mode & 0o777) == UnixSocketFile.mode)
        }
        try leaveStaleSocket(at: socket)
        try UnixSocketFile.prepare(at: socket)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
