import Testing

@testable import SyncCore
@testable import SyncDecoding
@testable import SyncHTTP
@testable import SyncSupport

/// Values outside the records — cursors, next URLs, has-more flags — are captured while the body streams, whatever
/// the chunking, wherever they are (before or after the records), and without confusing them with the records'.
@Suite("decoding: values captured outside the records")
struct EnvelopeCaptureTests {
    static let body = #"""
        {"meta": {"data": [{"next": "inner"}], "next": "c\u002b2\"x", "count": 3, "more": true},
         "data": [{"id": 1, "meta": {"next": "in a record"}}, {"id": 2, "next": "no"}],
         "links": {"next": "/users?page=2", "list": [1, {"a": "b"}], "deep": {"x": {"y": false}}}, "n": -1.5e3,
         "empty": "", "none": null}
        """#

    static let paths = [
        "meta.next", "meta.more", "links.next", "links.deep.x.y", "n", "empty", "none", "missing",
        "links.list[1]", "meta.count",
    ]

    static func capture(_ body: String, chunkSize: Int, paths: [String] = paths) throws -> [String: CapturedValue] {
        let parsed = try paths.map { try JSONPath(parsing: $0) }
        let decoder = RecordDecoder(
            recordsPath: try JSONPath(parsing: "data"),
            columns: [ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer)], keyColumns: [0],
            strict: false)
        var chunked = ChunkedRecordDecoder(decoder, capturing: parsed)
        let bytes = Array(body.utf8)
        var ids: [ColumnValue] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            try bytes[start..<end].withUnsafeBytes { chunk in
                try chunked.feed(chunk) { record, _ in ids.append(record.values[0]) }
            }
            start = end
        }
        #expect(try chunked.finish() == 2)
        #expect(ids == [.integer(1), .integer(2)])
        var values: [String: CapturedValue] = [:]
        for (text, path) in zip(paths, parsed) {
            if let value = chunked.capturedValue(at: path) { values[text] = value }
        }
        return values
    }

    @Test("every kind of value, in chunks of any size", arguments: [1, 2, 3, 7, 16, 64, 4096])
    func values(chunkSize: Int) throws {
        let values = try Self.capture(Self.body, chunkSize: chunkSize)
        #expect(
            values == [
                "meta.next": .string("c+2\"x"), "meta.more": .bool(true), "links.next": .string("/users?page=2"),
                "links.deep.x.y": .bool(false), "n": .number("-1.5e3"), "empty": .string(""), "none": .null,
                "links.list[1]": .other(#"{"a": "b"}"#), "meta.count": .number("3"),
            ])
        #expect(values["meta.next"]?.text == "c+2\"x" && values["empty"]?.text == nil && values["none"]?.text == nil)
    }

    @Test("the last record's value at a path inside it, whatever the chunking", arguments: [1, 2, 3, 7, 64, 4096])
    func lastRecord(chunkSize: Int) throws {
        let decoder = RecordDecoder(
            recordsPath: try JSONPath(parsing: "data"),
            columns: [ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .text)], keyColumns: [0],
            strict: false)
        let bodies: [(String, CapturedValue?)] = [
            (
                #"{"data": [{"id": "cus_1"}, {"x": {"id": 9}, "id" : "cus_\u0032"}], "has_more": true}"#,
                .string("cus_2")
            ),
            (#"{"data": [{"id": "cus_1"}, {"id": 12345678901234567890}]}"#, .number("12345678901234567890")),
            (#"{"data": [{"id": "cus_1"}, {"name": "no id"}]}"#, nil),
            (#"{"data": [{"id": "cus_1"}, 7]}"#, nil),
            (#"{"data": []}"#, nil),
        ]
        for (body, expected) in bodies {
            var chunked = ChunkedRecordDecoder(
                decoder, lastRecordPath: try JSONPath(parsing: "id"), decodingRecords: false)
            let bytes = Array(body.utf8)
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try bytes[start..<min(bytes.count, start + chunkSize)].withUnsafeBytes { chunk in
                    try chunked.feed(chunk) { _, _ in }
                }
            }
            _ = try chunked.finish()
            #expect(chunked.lastRecordValue == expected, "\(body)")
        }
    }

    @Test("a body starting with a byte order mark", arguments: [1, 2, 4096])
    func byteOrderMark(chunkSize: Int) throws {
        let values = try Self.capture(
            "\u{FEFF}" + #"{"data": [{"id": 1}, {"id": 2}], "next": "n"}"#, chunkSize: chunkSize, paths: ["next"])
        #expect(values == ["next": .string("n")])
    }

    @Test("a key that repeats: the last value wins; an overlong value is not kept")
    func repeatsAndLimits() throws {
        let long = String(repeating: "x", count: EnvelopeCapture.maximumValueLength + 1)
        let body = #"{"next": "a", "data": [{"id": 1}, {"id": 2}], "next": "b", "big": "\#(long)"}"#
        let values = try Self.capture(body, chunkSize: 1000, paths: ["next", "big"])
        #expect(values == ["next": .string("b")])
    }
}

@Suite("pagination: Link headers and page URLs")
struct LinkHeaderTests {
    @Test("rel=next is found among several links, fields, quoted lists and odd targets")
    func next() {
        #expect(LinkHeader.next(in: [#"<https://a.example/x?page=2>; rel="next""#]) == "https://a.example/x?page=2")
        #expect(LinkHeader.next(in: [#"</p1>; rel="prev", </p3>; rel="next""#]) == "/p3")
        #expect(LinkHeader.next(in: [#"</p1>; rel=first"#, #"</p9>; rel="last next""#]) == "/p9")
        #expect(LinkHeader.next(in: [#"</a,b;c>; title="x, rel=next"; rel="Next""#]) == "/a,b;c")
        #expect(LinkHeader.next(in: [#"</p1>; rel="nextish""#, #"</p1>; rel=prev"#]) == nil)
        #expect(LinkHeader.next(in: ["garbage", ""]) == nil)
    }

    @Test("the Link parser reads bytes as the parser of Unicode scalars before it read characters, on any field")
    func linksAsBefore() {
        var generator = SplitMix64(seed: 8288)
        // Structure, blanks, letters that spell relations and parameters, and characters of two to four bytes, one
        // a combining accent that joins the character before it.
        let alphabet: [String] = [
            "<", ">", ";", ",", "=", "\"", "\\", " ", "\t", "rel", "REL", "next", "last", "title", "/p?x=1", "a",
            "é", "\u{301}", "😀", "ﬀ",
        ]
        var fields = [
            #"<https://a.example/x?page=2>; rel="next""#, #"</p1>; rel="prev", </p3>; rel="next""#,
            #"</a,b;c>; title="x, rel=next"; rel="Next""#, #"</é>; rel="n\"ext\é last""#, "<", "<>", ";rel=next",
        ]
        for _ in 0..<3000 {
            let length = Int(generator.next() % 24)
            fields.append((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined())
        }
        for field in fields {
            let links = LinkHeader.links(in: field)
            let before = ScalarLinkParser.links(in: field)
            #expect(links.map(\.target) == before.map(\.target), "\(field.debugDescription)")
            #expect(links.map(\.relations) == before.map(\.relations), "\(field.debugDescription)")
        }
    }

    @Test("next URLs resolve against the page's URL; only http and https are followed")
    func resolve() {
        let base = "https://api.example/v1/users?page=1"
        #expect(PageURL.resolve("?page=2", against: base) == "https://api.example/v1/users?page=2")
        #expect(PageURL.resolve("/v2/users?c=x", against: base) == "https://api.example/v2/users?c=x")
        #expect(PageURL.resolve("more", against: base) == "https://api.example/v1/more")
        #expect(PageURL.resolve("https://other.example/u", against: base) == "https://other.example/u")
        #expect(PageURL.resolve("file:///etc/passwd", against: base) == nil)
        #expect(PageURL.resolve("  ", against: base) == nil)
    }

    @Test("the references resolved without Foundation resolve as Foundation resolves them; the rest go to it")
    func plainReferences() throws {
        var generator = SplitMix64(seed: 3986)
        func pick<T>(_ items: [T]) -> T { items[Int(generator.next() % UInt64(items.count))] }
        let bases = [
            "https://api.github.com/repositories/1/issues?page=1", "http://127.0.0.1:18999/users-paged?page=7",
            "http://localhost/x", "https://a-b.example.com:8443", "http://example.com:80/v1/", "https://example.com.",
            "https://user:secret@example.com/x", "https://EXAMPLE.com/x", "http://[::1]:8080/x", "https://host:/x",
        ]
        let pieces = [
            "/", "users", "page", "=", "?", "&", "2", "%2F", "%2f", "%zz", ".", "..", "./", "~", "+", ":", "@", "!",
            "$",
            "'", "(", ")", "*", ",", ";", "-", "_", "#f", " ", "é", "//", "\\", "https://", "http://h.example",
        ]
        var plain = 0
        for _ in 0..<5000 {
            let base = pick(bases)
            var reference = (0..<Int(generator.next() % 8)).map { _ in pick(pieces) }.joined()
            if generator.next() % 2 == 0 { reference = "/" + reference }
            if generator.next() % 5 == 0 {
                reference = pick(["https://api.github.com", "http://127.0.0.1:1"]) + reference
            }
            let foundation = PageURL.resolvedByFoundation(reference, against: base)
            if let resolved = PageURL.plainlyResolved(reference, against: base) {
                plain += 1
                #expect(resolved == foundation, "\(reference.debugDescription) against \(base)")
            }
            #expect(PageURL.resolve(reference, against: base) == foundation)
        }
        #expect(plain > 500, "the plain path took \(plain) of 5,000")
        let github = "https://api.github.com/repositories/1/issues?page=2"
        #expect(PageURL.plainlyResolved(github, against: bases[0]) == github)
        #expect(
            PageURL.plainlyResolved("/users-paged?page=8", against: bases[1])
                == "http://127.0.0.1:18999/users-paged?page=8")
        #expect(PageURL.plainlyResolved("/a/../b", against: bases[1]) == nil, "a dot segment goes to Foundation")
    }

    @Test("parameters are replaced in place, appended when new, and encoded")
    func setting() {
        #expect(PageURL.setting([("page", "2")], in: "https://a/x?page=1&n=5#f") == "https://a/x?page=2&n=5#f")
        #expect(PageURL.setting([("c", "a+b/=&")], in: "https://a/x") == "https://a/x?c=a%2Bb%2F%3D%26")
        #expect(PageURL.setting([("k", "v")], in: "https://a/x?k=1&k=2&z") == "https://a/x?k=v&z")
    }

    @Test("origins compare scheme, host and port, default ports included")
    func origins() {
        #expect(PageURL.isSameOrigin("https://A.example/x", "https://a.example:443/y"))
        #expect(!PageURL.isSameOrigin("https://a.example/x", "http://a.example/x"))
        #expect(!PageURL.isSameOrigin("http://127.0.0.1:80/x", "http://127.0.0.1:81/x"))
        #expect(!PageURL.isSameOrigin("https://a.example/x", "https://a.example.evil/x"))
        #expect(PageURL.isSameOrigin("http://127.0.0.1:18999/users?page=2", "http://127.0.0.1:18999/users"))
        #expect(!PageURL.isSameOrigin("http://127.0.0.1:18999/users", "http://127.0.0.1:1899/users"))
        #expect(!PageURL.isSameOrigin("http://127.0.0.1:18999/users", "http://127.0.0.1:18999x/users"))
        #expect(!PageURL.isSameOrigin("http://a.example/x", "http://a.example@b.example/x"))
    }
}

/// The Link parser as it was before it read bytes: Unicode scalars, slice by slice. The byte parser must agree with it.
private enum ScalarLinkParser {
    static func links(in field: String) -> [(target: String, relations: [String])] {
        var links: [(target: String, relations: [String])] = []
        var scalars = Substring(field).unicodeScalars[...]
        while true {
            scalars = scalars.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard scalars.first == "<" else { break }
            scalars = scalars.dropFirst()
            let target = String(String.UnicodeScalarView(scalars.prefix { $0 != ">" }))
            scalars = scalars.drop { $0 != ">" }
            guard scalars.first == ">" else { break }
            scalars = scalars.dropFirst()
            var relations: [String] = []
            // Parameters until the comma that ends this link.
            while true {
                scalars = scalars.drop { $0 == " " || $0 == "\t" }
                guard scalars.first == ";" else { break }
                scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
                let name = String(String.UnicodeScalarView(scalars.prefix { !"=;, \t".unicodeScalars.contains($0) }))
                scalars = scalars.dropFirst(name.unicodeScalars.count).drop { $0 == " " || $0 == "\t" }
                var value = ""
                if scalars.first == "=" {
                    scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
                    if scalars.first == "\"" {
                        scalars = scalars.dropFirst()
                        var escaped = false
                        while let scalar = scalars.first {
                            scalars = scalars.dropFirst()
                            if escaped {
                                value.unicodeScalars.append(scalar)
                                escaped = false
                            } else if scalar == "\\" {
                                escaped = true
                            } else if scalar == "\"" {
                                break
                            } else {
                                value.unicodeScalars.append(scalar)
                            }
                        }
                    } else {
                        let token = scalars.prefix { !";, \t".unicodeScalars.contains($0) }
                        value = String(String.UnicodeScalarView(token))
                        scalars = scalars.dropFirst(token.count)
                    }
                }
                if name.lowercased() == "rel" {
                    relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
            }
            links.append((target, relations))
            // Anything else up to the next comma is not a parameter: skip it.
            scalars = scalars.drop { $0 != "," }
        }
        return links
    }
}
