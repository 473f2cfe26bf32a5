import Testing

@testable import SyncCore
@testable import SyncServe

/// Every query parameter is bounded where it is parsed (issue 40): a request of a few hundred bytes once asked for an
/// 87 MiB answer with `select=name,name,…`.
@Suite("read API: the bounds of query strings")
struct QueryLimitsTests {
    static func records(_ query: String) throws(ReadAPIError) -> PostgRESTQuery {
        try PostgRESTQuery(QueryString(Substring(query)))
    }

    static func changes(_ query: String) throws(ReadAPIError) -> ChangeFeedQuery {
        try ChangeFeedQuery(parsing: query, maxRows: 1000)
    }

    /// The parameter a refusal names and its sentence, or nil when the query is taken.
    static func refusal(_ parse: () throws -> Void) -> (String, String)? {
        do {
            try parse()
            return nil
        } catch {
            guard case .badParameter(let name, let sentence) = error as? ReadAPIError else { return ("", "\(error)") }
            return (name, sentence)
        }
    }

    static let filters = (0...QueryLimits.filters).map { "id=gt.\($0)" }.joined(separator: "&")
    static let orderItems = Array(repeating: "id", count: QueryLimits.orderItems + 1).joined(separator: ",")
    static let inValues = (0...QueryLimits.inValues).map(String.init).joined(separator: ",")

    @Test(
        "each bound of a records query is a 400 naming the parameter and the bound, in one sentence",
        arguments: [
            ("select=name,id,name", "select", "name"),
            ("select=name,%20name", "select", "name"),
            (filters, "id", "\(QueryLimits.filters)"),
            ("order=" + orderItems, "order", "\(QueryLimits.orderItems)"),
            ("id=in.(" + inValues + ")", "id", "\(QueryLimits.inValues)"),
            ("name=eq." + String(repeating: "x", count: QueryLimits.valueScalars + 1), "name", "4096"),
            ("a=1&" + String(repeating: "x", count: QueryLimits.queryBytes), "query", "8192"),
            ("limit=1000000001", "limit", "1000000000"), ("offset=1000000001", "offset", "1000000000"),
            ("offset=9223372036854775807", "offset", "1000000000"), ("limit=%2B5", "limit", "1000000000"),
        ])
    func recordsBounds(query: String, parameter: String, named: String) throws {
        let (name, sentence) = try #require(Self.refusal { _ = try Self.records(query) }, "\(query.prefix(60))")
        #expect(name == parameter)
        #expect(sentence.contains(named), "\(sentence)")
        #expect(sentence.hasSuffix(".") && !sentence.dropLast().contains(". "), "\(sentence)")
    }

    @Test("at the bounds, a records query is taken")
    func recordsAtBounds() throws {
        let filters = (1...QueryLimits.filters).map { "id=gt.\($0)" }.joined(separator: "&")
        #expect(try Self.records(filters).query.filters.count == QueryLimits.filters)
        let order = Array(repeating: "id", count: QueryLimits.orderItems).joined(separator: ",")
        #expect(try Self.records("order=" + order).query.order.count == QueryLimits.orderItems)
        let values = (1...QueryLimits.inValues).map(String.init).joined(separator: ",")
        #expect(try Self.records("id=in.(\(values))").query.filters.first?.values.count == QueryLimits.inValues)
        #expect(try Self.records("limit=1000000000&offset=1000000000").query.offset == QueryLimits.count)
        #expect(try Self.records("select=id,name").select == ["id", "name"])
    }

    @Test(
        "each bound or malformed number of a change-feed query is a 400 naming the parameter",
        arguments: [
            ("limit=0", "limit"), ("limit=1000000001", "limit"), ("since=%2B1", "since"), ("since=-1", "since"),
            ("since=9223372036854775808", "since"), ("after=1.r.-1", "after"), ("after=%2B1.r.1", "after"),
            ("after=1.x.1", "after"), ("after=1.r.9223372036854775808", "after"),
        ])
    func changesBounds(query: String, parameter: String) throws {
        let (name, sentence) = try #require(Self.refusal { _ = try Self.changes(query) }, "\(query)")
        #expect(name == parameter)
        #expect(sentence.hasSuffix("."), "\(sentence)")
    }

    @Test("a change-feed position at or before since is the walk's start, not a 400")
    func positionBeforeSince() throws {
        #expect(try Self.changes("after=0.d.0").after == nil)
        #expect(try Self.changes("since=5&after=5.r.9").after == nil)
        #expect(
            try Self.changes("since=1&after=2.r.3").after
                == SyncCache.FeedPosition(ChangePosition(version: 2, isDeletion: false, rowid: 3)))
    }
}
