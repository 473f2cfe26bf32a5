import Testing

@testable import SyncCore
@testable import SyncServe

@Suite("read API: PostgREST query strings")
struct PostgRESTQueryTests {
    func parse(_ query: String) throws -> PostgRESTQuery {
        try PostgRESTQuery(QueryString(Substring(query)))
    }

    @Test("filters, negation, lists with quoted commas, order modifiers, limit, offset and select")
    func parsing() throws {
        let parsed = try parse(
            "city=eq.Gwen+borough&id=in.(1,%222,3%22,%20x)&name=not.like.A*&zip=is.null&order=name.desc.nullslast,id"
                + "&limit=5&offset=10&select=id,%20name")
        #expect(
            parsed.query.filters == [
                .init(column: "city", op: .eq, values: ["Gwen borough"]),
                .init(column: "id", op: .in, values: ["1", "2,3", "x"]),
                .init(column: "name", op: .like, values: ["A*"], negated: true),
                .init(column: "zip", op: .is, values: ["null"]),
            ])
        #expect(
            parsed.query.order == [.init(column: "name", descending: true, nullsFirst: false), .init(column: "id")])
        #expect(parsed.query.limit == 5)
        #expect(parsed.query.offset == 10)
        #expect(parsed.select == ["id", "name"])
        #expect(try parse("select=*").select == nil)
        #expect(try parse("id=in.()").query.filters.first?.values == [])
        #expect(try parse("a=eq.x&a=neq.y").query.filters.count == 2)
    }

    @Test("every malformed parameter is refused, naming it")
    func refusals() {
        let cases = [
            ("city=Oslo", "city"), ("city=between.1", "city"), ("id=in.1,2", "id"), ("id=in.(\"1,2)", "id"),
            ("limit=-1", "limit"), ("offset=1.5", "offset"), ("order=a.b", "order"), ("order=.desc", "order"),
            ("select=id,", "select"), ("or=(a.eq.1)", "or"),
        ]
        for (query, parameter) in cases {
            #expect(throws: ReadAPIError.self, "\(query)") { try parse(query) }
            do {
                _ = try parse(query)
            } catch {
                if case .badParameter(let name, let sentence) = error as? ReadAPIError {
                    #expect(name == parameter, "\(query)")
                    #expect(sentence.hasSuffix("."), "\(query): \(sentence)")
                } else {
                    Issue.record("\(query): \(error)")
                }
            }
        }
    }

    @Test("percent-decoding keeps malformed escapes and reads + as a space only in query strings")
    func decoding() throws {
        #expect(QueryString.decode("a%20b+c") == "a b c")
        #expect(QueryString.decode("a+b", plusIsSpace: false) == "a+b")
        #expect(QueryString.decode("100%") == "100%")
        #expect(QueryString.decode("%zz%4") == "%zz%4")
        #expect(QueryString.decode("%E2%9C%93") == "✓")
        #expect(try QueryString(Substring("a=1&&b&c=")).pairs.map { "\($0.name)=\($0.value)" } == ["a=1", "b=", "c="])
    }

    @Test("Content-Range as PostgREST writes it")
    func contentRange() {
        #expect(ReadModel.contentRange(offset: 0, count: 10, total: nil) == "0-9/*")
        #expect(ReadModel.contentRange(offset: 20, count: 5, total: 25) == "20-24/25")
        #expect(ReadModel.contentRange(offset: 0, count: 0, total: 0) == "*/0")
    }
}
