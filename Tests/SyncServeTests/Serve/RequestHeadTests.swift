import HTTPTypes
import SyncServe
import Testing

/// The fast path's reading of request heads: what it takes as a whole request, what it leaves to NIO's decoder, and
/// where it finds a head's end.
@Suite("read API: request heads off the wire")
struct RequestHeadTests {
    static func head(_ text: String) -> RequestHead? {
        Array(text.utf8).withUnsafeBytes { RequestHead($0) }
    }

    static func end(_ text: String, from searched: Int = 0) -> Int? {
        Array(text.utf8).withUnsafeBytes { RequestHead.end(in: $0, from: searched) }
    }

    @Test(
        "a GET's target, first Host and the fields its answer depends on, names in any case, values as NIO reads them")
    func reads() throws {
        let head = try #require(
            Self.head(
                "GET /v1/endpoints/users/records/1?a=b HTTP/1.1\r\nhOsT:  127.0.0.1:8787 \r\nAccept: */*\r\n"
                    + "If-None-Match:\t\"abc\"\r\nAUTHORIZATION: Bearer t\r\nprefer: count=exact\r\n"
                    + "If-Modified-Since: Sun, 29 Nov 2026 16:00:00 GMT\r\nX-Empty:\r\n\r\n"))
        #expect(head.isGET)
        #expect(head.target == "/v1/endpoints/users/records/1?a=b")
        // As NIO's decoder reads it: the spaces before the value dropped, those after it kept.
        #expect(head.authority == "127.0.0.1:8787 ")
        #expect(!head.needsRouter)
        #expect(head.fields[.ifNoneMatch] == "\"abc\"")
        #expect(head.fields[.authorization] == "Bearer t")
        #expect(head.fields[HTTPField.Name("Prefer")!] == "count=exact")
        #expect(head.fields[.ifModifiedSince] == "Sun, 29 Nov 2026 16:00:00 GMT")
        // Only those: Accept and X-Empty are not kept.
        #expect(head.fields.count == 4)
    }

    @Test("other methods NIO knows are whole requests too, and Connection, Expect or a second Host need the router")
    func routerRequests() throws {
        for method in ["HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"] {
            let head = try #require(Self.head("\(method) / HTTP/1.1\r\n\r\n"), "\(method)")
            #expect(!head.isGET)
        }
        for field in ["Connection: keep-alive, TE", "Connection: upgrade", "Expect: 100-continue", "Host: b"] {
            let head = try #require(Self.head("GET /x HTTP/1.1\r\nHost: a\r\n\(field)\r\n\r\n"), "\(field)")
            #expect(head.needsRouter, "\(field)")
            #expect(head.authority == "a")
        }
    }

    @Test("a Connection of keep-alive alone, in any case and spacing, changes nothing: the fast path may answer")
    func keepAlive() throws {
        for value in ["keep-alive", "Keep-Alive ", "keep-alive,\tKEEP-ALIVE"] {
            let head = try #require(Self.head("GET /x HTTP/1.1\r\nHost: a\r\nConnection: \(value)\r\n\r\n"))
            #expect(!head.needsRouter, "\(value.debugDescription)")
        }
        for value in ["keep-alive,", "keep alive", "keep-alive, x"] {
            let head = try #require(Self.head("GET /x HTTP/1.1\r\nHost: a\r\nConnection: \(value)\r\n\r\n"))
            #expect(head.needsRouter, "\(value.debugDescription)")
        }
    }

    @Test(
        "a body, an upgrade, a tunnel, a close, another version, a bare LF, a folded line, a byte past ASCII or too many fields: not read"
    )
    func leftToTheDecoder() {
        let refused = [
            "GET /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
            "POST /x HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n",
            "GET /x HTTP/1.1\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n",
            "CONNECT example.com:443 HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n",
            "BREW /x HTTP/1.1\r\n\r\n",
            "get /x HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.0\r\n\r\n",
            "GET /x HTTP/2.0\r\n\r\n",
            "GET /x\r\n\r\n",
            "GET  /x HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1 \r\n\r\n",
            "\r\nGET /x HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1\nHost: a\r\n\r\n",
            "GET /x HTTP/1.1\r\nHost: a\n\r\n",
            "GET /x HTTP/1.1\r\nHost: a\rb\r\n\r\n",
            "GET /x HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n",
            "GET /x HTTP/1.1\r\nHost : a\r\n\r\n",
            "GET /x HTTP/1.1\r\n: a\r\n\r\n",
            "GET /x HTTP/1.1\r\nX-A: caf\u{E9}\r\n\r\n",
            "GET /caf\u{E9} HTTP/1.1\r\n\r\n",
            "GET x HTTP/1.1\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1\r\nX-A: \u{7F}\r\n\r\n",
            "GET /x HTTP/1.1\r\nX-A: a\u{0}b\r\n\r\n",
            "GET /x HTTP/1.1\r\n" + String(repeating: "X-A: 1\r\n", count: RequestHead.maxFields + 1) + "\r\n",
            "GET /x HTTP/1.1\r\nX-A: " + String(repeating: "a", count: RequestHead.maxLength) + "\r\n\r\n",
            // More than a head: the caller passes exactly one.
            "GET /x HTTP/1.1\r\n\r\nG",
        ]
        for text in refused {
            #expect(Self.head(text) == nil, "\(text.debugDescription)")
        }
        #expect(
            Self.head("GET /x HTTP/1.1\r\n" + String(repeating: "X-A: 1\r\n", count: RequestHead.maxFields) + "\r\n")
                != nil)
    }

    @Test("a head's end is just past its first CRLF CRLF, found wherever the search resumes")
    func ends() {
        let text = "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\n\r\n"
        let first = text.utf8.count - "GET /2 HTTP/1.1\r\n\r\n".utf8.count
        for searched in 0..<first {
            #expect(Self.end(text, from: searched) == first, "from \(searched)")
        }
        #expect(Self.end("GET / HTTP/1.1\r\nHost: a\r\n") == nil)
        #expect(Self.end("\r\n\r") == nil)
        #expect(Self.end("\r\n\r\n") == 4)
        #expect(Self.end("\n\r\n\r\n") == 5)
        #expect(Self.end("a\r\r\n\r\n") == 6)
        #expect(Self.end("a\n\n\r\n") == nil)
        // Every prefix of a head either has no end or the head's.
        let head = "GET /x HTTP/1.1\r\nA: \r\r\n\r\n"
        for count in 0...head.utf8.count {
            let prefix = String(head.utf8.prefix(count))!
            #expect(Self.end(prefix) == (count == head.utf8.count ? count : nil), "\(prefix.debugDescription)")
        }
    }
}
