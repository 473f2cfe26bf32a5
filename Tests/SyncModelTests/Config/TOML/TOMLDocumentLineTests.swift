import Testing

@testable import SyncCore

@Suite("The line of every key and table of a TOML document")
struct TOMLDocumentLineTests {
    static let document = #"""
        title = "x"   # a comment with key = "value"
        [server]
        "quoted key" = 1
        'literal key' = 2
        a.b . "c" = 3
        text = """
        inside = "a multi-line string"
        ends here \"""
        """
        list = [
          { inner = 1 },
          "item",
        ]
        after = true
        [[endpoint]]
        name = "one"
        auth = { type = "bearer", token_env = "T" }
        [endpoint.columns]
        id = "id"
        [[endpoint]]
        name = "two"
        literal = '''
        fake = 1
        '''
        [ endpoint . columns ]   # spaces are allowed in headers
        id = { path = "id" }
        """#

    let index: TOMLDocument

    init() throws {
        index = try TOMLReader.read(Self.document)
    }

    @Test(
        "keys and headers",
        arguments: [
            ([TOMLDocument.Segment.key("title")], 1),
            ([.key("server")], 2),
            ([.key("server"), .key("quoted key")], 3),
            ([.key("server"), .key("literal key")], 4),
            ([.key("server"), .key("a")], 5),
            ([.key("server"), .key("a"), .key("b"), .key("c")], 5),
            ([.key("server"), .key("text")], 6),
            ([.key("server"), .key("list")], 10),
            ([.key("server"), .key("after")], 14),
            ([.key("endpoint")], 15),
            ([.key("endpoint"), .index(0)], 15),
            ([.key("endpoint"), .index(0), .key("name")], 16),
            ([.key("endpoint"), .index(0), .key("columns"), .key("id")], 19),
            ([.key("endpoint"), .index(1)], 20),
            ([.key("endpoint"), .index(1), .key("literal")], 22),
            ([.key("endpoint"), .index(1), .key("columns")], 25),
            ([.key("endpoint"), .index(1), .key("columns"), .key("id")], 26),
        ]
    )
    func lines(path: [TOMLDocument.Segment], line: Int) {
        #expect(index.line(of: path) == line)
    }

    @Test("keys inside inline tables have their own lines; paths that do not exist answer with their deepest part")
    func fallbacks() {
        #expect(index.line(of: [.key("endpoint"), .index(0), .key("auth"), .key("token_env")]) == 17)
        #expect(index.line(of: [.key("endpoint"), .index(1), .key("columns"), .key("id"), .key("path")]) == 26)
        #expect(index.line(of: [.key("server"), .key("inside")]) == 2)
        #expect(index.line(of: [.key("server"), .key("inner")]) == 2)
        #expect(index.line(of: [.key("endpoint"), .index(1), .key("fake")]) == 20)
        #expect(index.line(of: [.key("nowhere")]) == nil)
    }

    @Test("CRLF line endings")
    func crlf() throws {
        let index = try TOMLReader.read("a = 1\r\n[t]\r\nb = 2\r\n")
        #expect(index.line(of: [.key("t"), .key("b")]) == 3)
    }

    @Test("inline tables over several lines of an array, and a table defined after its sub-table")
    func inlineAndImplicit() throws {
        let index = try TOMLReader.read("list = [\n  { a = 1 },\n  { b = 2 },\n]\n[x.y]\n[x]\nz = 1\n")
        #expect(index.line(of: [.key("list"), .index(1), .key("b")]) == 3)
        #expect(index.line(of: [.key("list"), .index(0)]) == 2)
        #expect(index.line(of: [.key("x")]) == 6)
        #expect(index.line(of: [.key("x"), .key("y")]) == 5)
        #expect(index.line(of: [.key("x"), .key("z")]) == 7)
    }
}
