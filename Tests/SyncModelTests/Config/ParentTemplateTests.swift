import Testing

@testable import SyncCore

/// `{parent.NAME}` templates: what they read, how each place encodes a value, and what they refuse — each refusal one
/// sentence naming the placeholder, never a crash.
@Suite("ParentTemplate")
struct ParentTemplateTests {
    static let base = "https://api.example.com"

    func url(_ text: String, _ values: [String: ColumnValue]) throws -> String {
        try ParentTemplate(parsing: Self.base + text, for: .url).render(values)
    }

    @Test("the names a template uses, each once, in order; a text without a placeholder is no template")
    func names() throws {
        let template = try ParentTemplate(
            parsing: Self.base + "/orgs/{parent.org}/repos/{parent.id}?owner={parent.org}", for: .url)
        #expect(template.names == ["org", "id"])
        #expect(template.exampleText == Self.base + "/orgs/1/repos/1?owner=1")
        #expect(URLRules.isValid(template.exampleText))
        #expect(template.isTemplate)
        let plain = try ParentTemplate(parsing: Self.base + "/users?page=1", for: .url)
        #expect(plain.names.isEmpty && !plain.isTemplate)
        #expect(try plain.render([:]) == Self.base + "/users?page=1")
        #expect(ParentTemplate.mentionsParent("a {parent.x}") && !ParentTemplate.mentionsParent("a {parents}"))
    }

    @Test(
        "a path value is one segment: everything outside pchar is percent-encoded, / too",
        arguments: [
            ("acme/widgets", "acme%2Fwidgets"), ("a b", "a%20b"), ("50%", "50%25"), ("a?b#c", "a%3Fb%23c"),
            ("ü", "%C3%BC"), ("a+b=c;d@e:f", "a+b=c;d@e:f"), ("~x_y.z-", "~x_y.z-"), ("{}", "%7B%7D"),
        ])
    func pathSegment(_ value: String, _ encoded: String) throws {
        #expect(
            try url("/repos/{parent.name}/issues", ["name": .text(value)]) == "\(Self.base)/repos/\(encoded)/issues")
    }

    @Test("{parent.NAME:path} keeps the / between segments and encodes each")
    func pathSegments() throws {
        let rendered = try url("/repos/{parent.full_name:path}/issues", ["full_name": .text("acme/wid gets")])
        #expect(rendered == Self.base + "/repos/acme/wid%20gets/issues")
    }

    @Test(
        "a value that leaves an empty, . or .. path segment is refused, naming the placeholder",
        arguments: [
            ("/repos/{parent.x}/issues", ""), ("/repos/{parent.x}/issues", "."), ("/repos/{parent.x}/issues", ".."),
            ("/repos/{parent.x}", ""), ("/repos/{parent.x:path}/issues", "a//b"),
            ("/repos/{parent.x:path}/issues", "../admin"), ("/repos/{parent.x:path}/issues", "/a"),
            ("/repos/{parent.x:path}/issues", "a/"), ("/repos/.{parent.x}/issues", "."),
        ])
    func badSegments(_ template: String, _ value: String) throws {
        let error = #expect(throws: ParentTemplate.Problem.self) { try url(template, ["x": .text(value)]) }
        #expect(error?.description.hasPrefix("{parent.x} leaves an empty, \".\" or \"..\" segment") == true)
    }

    @Test("a template's own empty segment is not the value's, and a value beside a dot is fine")
    func ownSegments() throws {
        #expect(try url("/a//{parent.x}", ["x": .text("b")]) == Self.base + "/a//b")
        #expect(try url("/a/{parent.x}.json", ["x": .text("")]) == Self.base + "/a/.json")
        #expect(try url("/a/{parent.x}", ["x": .text("...")]) == Self.base + "/a/...")
    }

    @Test(
        "a query value keeps only the unreserved characters: + is %2B, a space %20, & = # encoded",
        arguments: [
            ("a+b", "a%2Bb"), ("a b", "a%20b"), ("x&y=z#w", "x%26y%3Dz%23w"), ("a/b?c", "a%2Fb%3Fc"),
            ("~._-", "~._-"),
        ])
    func queryValue(_ value: String, _ encoded: String) throws {
        #expect(
            try url("/issues?repo={parent.name}&state=all", ["name": .text(value)])
                == "\(Self.base)/issues?repo=\(encoded)&state=all")
    }

    @Test("numbers render canonically: integers in decimal, whole reals as integers, others shortest")
    func numbers() throws {
        let cases: [(ColumnValue, String)] = [
            (.integer(-42), "-42"), (.integer(Int64.max), "9223372036854775807"), (.real(1e10), "10000000000"),
            (.real(-0.0), "0"), (.real(1.5), "1.5"), (.real(1e300), "1e%2B300"), (.integer(1), "1"),
        ]
        for (value, text) in cases {
            #expect(try url("/x?n={parent.n}", ["n": value]) == "\(Self.base)/x?n=\(text)")
        }
    }

    @Test("a null or missing value, or a real that is not finite, is one sentence: the parent is not walked")
    func nullValue() throws {
        let template = try ParentTemplate(parsing: Self.base + "/r/{parent.id}", for: .url)
        let null = #expect(throws: ParentTemplate.Problem.self) { try template.render(["id": .null]) }
        #expect(null?.description == "{parent.id} is null in this parent's row; it is not walked")
        let missing = #expect(throws: ParentTemplate.Problem.self) { try template.render([:]) }
        #expect(missing?.description == "this parent's row has no column \"id\" for {parent.id}; it is not walked")
        #expect(throws: ParentTemplate.Problem.self) { try template.render(["id": .real(.infinity)]) }
    }

    @Test("a header value is sent as is; a control character is refused with a sentence that holds no value")
    func header() throws {
        let template = try ParentTemplate(parsing: "token {parent.key}", for: .header)
        #expect(try template.render(["key": .text("a b+c/d")]) == "token a b+c/d")
        for bad in ["a\r\nX-Injected: 1", "a\u{0}", "a\tb", "a\u{7F}", "\n"] {
            let error = #expect(throws: ParentTemplate.Problem.self) { try template.render(["key": .text(bad)]) }
            #expect(error?.description.hasPrefix("{parent.key} holds a control character") == true)
            #expect(error?.description.contains(bad) == false)
        }
    }

    @Test("in a JSON body the placeholder stands in a string and the value is JSON-escaped")
    func body() throws {
        let template = try ParentTemplate(
            parsing: #"{"query": "q", "variables": {"id": "{parent.id}", "name": "x-{parent.name}"}}"#, for: .body)
        let rendered = try template.render(["id": .integer(8), "name": .text("a\"b\\c\n")])
        #expect(rendered == #"{"query": "q", "variables": {"id": "8", "name": "x-a\"b\\c\n"}}"#)
        _ = try RequestBody(rendered)
    }

    @Test("a placeholder outside a JSON string is refused, and braces of the JSON are not placeholders")
    func bodyOutsideString() throws {
        let error = #expect(throws: ParentTemplate.Problem.self) {
            try ParentTemplate(parsing: #"{"id": {parent.id}}"#, for: .body)
        }
        #expect(error?.description.hasPrefix("{parent.id} must stand inside a JSON string") == true)
        let escaped = try ParentTemplate(parsing: #"{"a": "\"{parent.id}", "b": {"c": []}}"#, for: .body)
        #expect(escaped.names == ["id"])
    }

    @Test("{{parent. is a literal {parent.")
    func escape() throws {
        let template = try ParentTemplate(parsing: Self.base + "/x?t={{parent.id}&id={parent.id}", for: .url)
        #expect(template.names == ["id"])
        #expect(try template.render(["id": .integer(1)]) == Self.base + "/x?t={parent.id}&id=1")
    }

    @Test(
        "a malformed placeholder is one sentence naming it",
        arguments: [
            ("/x/{parent.id", #"the placeholder "{parent.id…" is not closed with "}""#),
            ("/x/{parent.}", #"{parent.}: "" is not a valid column name"#),
            ("/x/{parent.Id}", #"{parent.Id}: "Id" is not a valid column name"#),
            ("/x/{parent.a.b}", #"{parent.a.b}: "a.b" is not a valid column name"#),
            ("/x/{parent._raw}", #"{parent._raw}: "_raw" is not a valid column name"#),
            ("/x/{parent.id:raw}", #"{parent.id:raw}: the only form after the name is ":path""#),
            ("/x?q={parent.id:path}", #"{parent.id:path}: ":path" is only for a placeholder in the URL's path"#),
            ("/x#{parent.id}", "{parent.id} may not stand in the URL's fragment"),
        ])
    func malformed(_ text: String, _ sentence: String) throws {
        let error = #expect(throws: ParentTemplate.Problem.self) {
            try ParentTemplate(parsing: Self.base + text, for: .url)
        }
        #expect(error?.description.hasPrefix(sentence) == true, "\(error?.description ?? "")")
    }

    @Test("a placeholder in the scheme or host is refused: rows do not choose where requests go")
    func host() throws {
        let error = #expect(throws: ParentTemplate.Problem.self) {
            try ParentTemplate(parsing: "https://{parent.tenant}.example.com/x", for: .url)
        }
        #expect(error?.description.contains("may not stand in the URL's scheme or host") == true)
        // A query right after the host is a query.
        let query = try ParentTemplate(parsing: "https://example.com?id={parent.id}", for: .url)
        #expect(try query.render(["id": .text("a b")]) == "https://example.com?id=a%20b")
        let file = try ParentTemplate(parsing: "file:///data/{parent.id}.json", for: .url)
        #expect(try file.render(["id": .integer(3)]) == "file:///data/3.json")
    }

    @Test("a rendering past the limits is refused with a sentence")
    func bounded() throws {
        let long = String(repeating: "a", count: ConfigurationBounds.renderedURLBytes)
        let url = try ParentTemplate(parsing: Self.base + "/x/{parent.id}", for: .url)
        let error = #expect(throws: ParentTemplate.Problem.self) { try url.render(["id": .text(long)]) }
        #expect(
            error?.description == "the URL made from this parent's row is longer than 8 KiB; this parent is not walked")
        let header = try ParentTemplate(parsing: "{parent.id}", for: .header)
        #expect(throws: ParentTemplate.Problem.self) { try header.render(["id": .text(long + "a")]) }
        #expect(try header.render(["id": .text(long)]).utf8.count == ConfigurationBounds.renderedHeaderBytes)
    }
}
