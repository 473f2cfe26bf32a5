import Testing

@testable import SyncCore
@testable import SyncServe

/// A query string's separators are read among Unicode scalars: a combining mark, a prepended mark or a line break
/// next to `&`, `,`, `"` or `(` once merged with it into one Character and hid it (found by schemathesis).
@Suite("read API: query strings read as Unicode scalars")
struct QueryScalarTests {
    static func values(_ query: String) throws -> [String]? {
        try PostgRESTQuery(QueryString(Substring(query))).query.filters.first?.values
    }

    @Test(
        "in.(…) lists next to marks and control characters keep their separators",
        arguments: [
            ("name=in.(\u{301}x,y)", ["\u{301}x", "y"]),
            ("name=in.(x\u{600})", ["x\u{600}"]),
            ("name=in.(a,\u{301}b)", ["a", "\u{301}b"]),
            ("name=in.(\"\u{301}a\",b)", ["\u{301}a", "b"]),
            ("name=in.(a%0D,%0Ab)", ["a\r", "\nb"]),
            ("name=in.(%0D%0A)", ["\r\n"]),
            ("name=in.(%01,%7F)", ["\u{1}", "\u{7F}"]),
            ("name=in.( \"a,b\" , c )", ["a,b", "c"]),
            ("name=in.(\"a\\\"b\")", ["a\"b"]),
        ])
    func lists(query: String, expected: [String]) throws {
        #expect(try Self.values(query) == expected)
    }

    @Test("& and = are found next to marks, and a dot before a mark is still a dot")
    func separators() throws {
        let pairs = try QueryString(Substring("a=1&\u{301}b=2&c=\u{301}3")).pairs
        #expect(pairs.map(\.name) == ["a", "\u{301}b", "c"])
        #expect(pairs.map(\.value) == ["1", "2", "\u{301}3"])
        let filter = try PostgRESTQuery(QueryString(Substring("name=eq.\u{301}x"))).query.filters.first
        #expect(filter?.op == .eq && filter?.values == ["\u{301}x"])
    }

    @Test(
        "a malformed list is refused with what is wrong with it",
        arguments: [
            ("id=in.1,2", "parentheses"), ("id=in.(1,2", "parentheses"), ("id=in.(\"1,2)", "double quote"),
            ("id=in.(\"1\"2)", "double quote"), ("id=in.(\"1\\", "parentheses"),
        ])
    func malformedLists(query: String, fault: String) throws {
        do {
            _ = try Self.values(query)
            Issue.record("\(query) was taken")
        } catch {
            guard case .badParameter(let name, let sentence) = error as? ReadAPIError else {
                Issue.record("\(error)")
                return
            }
            #expect(name == "id")
            #expect(sentence.contains(fault), "\(query): \(sentence)")
        }
    }
}
