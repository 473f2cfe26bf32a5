import Foundation
import NIOCore
import NIOPosix
import SampleUpstream
import SyncTesting
import Testing

@Suite("SampleUpstream", .timeLimit(.minutes(1)))
struct SampleUpstreamTests {
    // MARK: LoopbackHTTPServer

    @Test("a 200 carries the handler's body and headers, and the handler sees path, query and headers")
    func completeResponse() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            .json(
                Array(#"{"ok":true}"#.utf8),
                headers: [
                    ("ETag", #""v1""#),
                    ("X-Seen-Path", request.path),
                    ("X-Seen-Query", request.query["q"] ?? "-"),
                    ("X-Seen-Header", request.header("x-probe") ?? "-"),
                ]
            )
        }
        let response = try await withRawConnection(port: server.port) { connection in
            try await connection.send(get("/items?q=a%20b+c&q=last%21", headers: "X-Probe: 42\r\n"))
            return try await connection.readResponse()
        }
        try await server.shutdown()

        #expect(response.status == 200)
        #expect(response.body == Array(#"{"ok":true}"#.utf8))
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Content-Length") == "11")
        #expect(response.header("ETag") == #""v1""#)
        #expect(response.header("X-Seen-Path") == "/items")
        #expect(response.header("X-Seen-Query") == "last!")
        #expect(response.header("X-Seen-Header") == "42")
        #expect(server.requestCount == 1)
    }

    @Test("two requests travel over one kept-alive connection, and HEAD gets the head without the body")
    func keepAliveAndHead() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            .json(Array("[\"\(request.path)\"]".utf8))
        }
        let (first, head, second) = try await withRawConnection(port: server.port) { connection in
            try await connection.send(get("/first"))
            let first = try await connection.readResponse()
            try await connection.send("HEAD /head HTTP/1.1\r\nHost: test\r\n\r\n")
            let head = try await connection.readResponse(hasBody: false)
            try await connection.send(get("/second"))
            return (first, head, try await connection.readResponse())
        }
        try await server.shutdown()

        #expect(first.body == Array(#"["/first"]"#.utf8))
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "9")
        #expect(second.body == Array(#"["/second"]"#.utf8))
        #expect(server.requestCount == 3)
    }

    @Test("a request with Connection: close gets a large body whole, then the server closes")
    func closeAfterLargeBody() async throws {
        let body = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try await LoopbackHTTPServer.start { _ in UpstreamResponse(body: body) }
        let (response, rest) = try await withRawConnection(port: server.port) { connection in
            try await connection.send(get("/big", headers: "Connection: close\r\n"))
            return (try await connection.readResponse(), try await connection.readToEnd())
        }
        try await server.shutdown()

        #expect(response.header("Connection") == "close")
        #expect(response.body == body)
        #expect(rest.isEmpty)
    }

    @Test("a truncated delivery declares the full length, sends the first bytes, then closes")
    func truncatedDelivery() async throws {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        let server = try await LoopbackHTTPServer.start { _ in
            UpstreamResponse(body: body, delivery: .truncated(afterBytes: 100))
        }
        let (head, received) = try await withRawConnection(port: server.port) { connection in
            try await connection.send(get("/cut"))
            return (try await connection.readHead(), try await connection.readToEnd())
        }
        try await server.shutdown()

        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "1000")
        #expect(received == Array(body.prefix(100)))
    }

    @Test("a stalled delivery sends nothing, and shutdown() still closes that connection and returns")
    func stalledDelivery() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
        let server = try await LoopbackHTTPServer.start { request in
            arrived.yield(request.path)
            return UpstreamResponse(body: Array("never".utf8), delivery: .stalled)
        }
        let received = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            group.addTask {
                try await withRawConnection(port: server.port) { connection in
                    try await connection.send(get("/slow"))
                    return try await connection.readToEnd()
                }
            }
            var events = arrivals.makeAsyncIterator()
            #expect(await events.next() == "/slow")
            try await server.shutdown()
            return try await group.next() ?? [0xFF]
        }

        #expect(received.isEmpty)
        #expect(server.requestCount == 1)
        try await server.shutdown()  // idempotent
        await #expect(throws: (any Error).self) {
            try await withRawConnection(port: server.port) { _ in }
        }
    }

    // MARK: DemoUpstream

    @Test("DemoUpstream answers 200, then 304 to its ETag, then 200 with new bytes after advance()")
    func demoRevalidation() async throws {
        let demo = DemoUpstream(userCount: 20)
        let server = try await LoopbackHTTPServer.start { demo.handle($0) }
        let (fresh, notModified, advanced) = try await withRawConnection(port: server.port) { connection in
            try await connection.send(get("/users"))
            let fresh = try await connection.readResponse()
            let etag = fresh.header("ETag") ?? ""
            try await connection.send(get("/users", headers: "If-None-Match: \(etag)\r\n"))
            let notModified = try await connection.readResponse(hasBody: false)
            demo.advance()
            try await connection.send(get("/users", headers: "If-None-Match: \(etag)\r\n"))
            return (fresh, notModified, try await connection.readResponse())
        }
        try await server.shutdown()

        #expect(fresh.status == 200)
        #expect(fresh.header("ETag") == #""users-g0""#)
        #expect(fresh.header("Last-Modified") == "Thu, 01 Jan 2026 00:00:00 GMT")
        #expect(fresh.body == SampleUsers.json(count: 20))
        #expect(notModified.status == 304)
        #expect(notModified.header("ETag") == #""users-g0""#)
        #expect(notModified.header("Content-Length") == nil)
        #expect(advanced.status == 200)
        #expect(advanced.header("ETag") == #""users-g1""#)
        #expect(advanced.body == SampleUsers.json(count: 20, generation: 1))
        #expect(advanced.body != fresh.body)
        #expect(demo.generation == 1)
    }

    @Test(
        "DemoUpstream's conditional requests",
        arguments: [
            ("If-None-Match", #""users-g0""#, 304),
            ("If-None-Match", #"W/"users-g0""#, 304),
            ("If-None-Match", #""other", W/"users-g0""#, 304),
            ("If-None-Match", "*", 304),
            ("If-None-Match", #""users-g1""#, 200),
            ("If-Modified-Since", "Thu, 01 Jan 2026 00:00:00 GMT", 304),
            ("If-Modified-Since", "Wed, 31 Dec 2025 23:59:59 GMT", 200),
            ("If-Modified-Since", "yesterday", 200),
        ]
    )
    func demoConditionals(header: String, value: String, status: Int) {
        let response = DemoUpstream().handle(UpstreamRequest(uri: "/users", headers: [(header, value)]))
        #expect(response.status == status)
        #expect(response.body.isEmpty == (status == 304))
    }

    @Test("DemoUpstream serves /flags.json with an ETag, and anything else as a 404 problem")
    func demoOtherPaths() {
        let demo = DemoUpstream(userCount: 5)
        let flags = demo.handle(UpstreamRequest(uri: "/flags.json?x=1"))
        #expect(flags.status == 200)
        #expect(flags.headers.contains { $0.name == "ETag" && $0.value == #""flags-v1""# })
        let revalidated = demo.handle(UpstreamRequest(uri: "/flags.json", headers: [("if-none-match", #""flags-v1""#)]))
        #expect(revalidated.status == 304)
        let missing = demo.handle(UpstreamRequest(uri: "/nope"))
        #expect(missing.status == 404)
        #expect(missing.headers.contains { $0.value == "application/problem+json" })
        #expect(demo.handle(UpstreamRequest(method: "POST", uri: "/users")).status == 405)
    }

    // MARK: SampleUsers

    @Test("SampleUsers gives the same bytes every time, as a JSON array shaped like jsonplaceholder's users")
    func sampleUsersShape() throws {
        let bytes = SampleUsers.json(count: 50)
        #expect(bytes == SampleUsers.json(count: 50))
        let users = try JSONDecoder().decode([SampleUser].self, from: Data(bytes))
        #expect(users.map(\.id) == Array(1...50))
        #expect(users.contains { $0.address.city == SampleUsers.aCity(count: 50) })
        let objects = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        let first = try #require(objects.first)
        #expect(Set(first.keys) == ["id", "name", "username", "email", "address", "phone", "website", "company"])
        let address = try #require(first["address"] as? [String: Any])
        #expect(Set(address.keys) == ["street", "suite", "city", "zipcode", "geo"])
        #expect(SampleUsers.json(count: 0) == Array("[]".utf8))
    }

    @Test("generation 1 changes a few users' email and phone, deletes one user and appends one")
    func sampleUsersGeneration() throws {
        let before = try JSONDecoder().decode([SampleUser].self, from: Data(SampleUsers.json(count: 300)))
        let after = try JSONDecoder().decode([SampleUser].self, from: Data(SampleUsers.json(count: 300, generation: 1)))
        let beforeByID = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })

        #expect(after.count == 300)
        #expect(Set(before.map(\.id)).subtracting(after.map(\.id)).count == 1)
        #expect(after.last?.id == 301)
        var changed = 0
        for user in after {
            guard let old = beforeByID[user.id], user != old else { continue }
            changed += 1
            #expect(user.email != old.email)
            var contactRestored = user
            contactRestored.email = old.email
            contactRestored.phone = old.phone
            #expect(contactRestored == old)
        }
        #expect(changed == 6)
        #expect(SampleUsers.json(count: 300, generation: 2) != SampleUsers.json(count: 300, generation: 1))
    }

    @Test("1,000 users are 500-600 kB of JSON, so the benchmark's 100,000 are 50-60 MB")
    func sampleUsersSize() {
        #expect((500_000...600_000).contains(SampleUsers.json(count: 1000).count))
    }
}

// MARK: - Helpers

/// One user as jsonplaceholder shapes it; decoding fails if `geo` holds numbers rather than strings.
private struct SampleUser: Decodable, Equatable {
    struct Address: Decodable, Equatable {
        struct Geo: Decodable, Equatable {
            var lat: String
            var lng: String
        }

        var street: String
        var suite: String
        var city: String
        var zipcode: String
        var geo: Geo
    }

    struct Company: Decodable, Equatable {
        var name: String
        var catchPhrase: String
        var bs: String
    }

    var id: Int
    var name: String
    var username: String
    var email: String
    var address: Address
    var phone: String
    var website: String
    var company: Company
}

private func get(_ target: String, headers: String = "") -> String {
    "GET \(target) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n"
}
