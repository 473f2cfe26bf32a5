import SyncTesting
import Testing

@testable import SyncCore

@Suite("Configuration: pagination")
struct ConfigurationPaginationTests {
    static func endpoint(_ pagination: String, records: Bool = true) -> String {
        """
        [[endpoint]]
        name = "users"
        url = "https://example.com/users"
        \(records ? #"records = "data""# : "")
        \(records ? #"primary_key = "id""# : "")
        pagination = \(pagination)
        """
    }

    @Test("every kind is read, with its defaults")
    func kinds() throws {
        let cases: [(String, PaginationConfiguration)] = [
            (#"{ type = "link" }"#, PaginationConfiguration(kind: .link)),
            (
                #"{ type = "cursor", cursor_path = "meta.next", param = "cursor", max_pages = 5 }"#,
                PaginationConfiguration(
                    kind: .cursor(path: try JSONPath(parsing: "meta.next"), from: .body, to: .query("cursor")),
                    maxPages: 5)
            ),
            (
                #"{ type = "next_url", path = "links.next", has_more_path = "meta.has_more" }"#,
                PaginationConfiguration(
                    kind: .nextURL(path: try JSONPath(parsing: "links.next")),
                    hasMorePath: try JSONPath(parsing: "meta.has_more"))
            ),
            (
                #"{ type = "page", param = "page", start = 1, size_param = "per_page", size = 100 }"#,
                PaginationConfiguration(kind: .page(param: "page", start: 1, sizeParam: "per_page", size: 100))
            ),
            (
                #"{ type = "page", param = "p" }"#,
                PaginationConfiguration(kind: .page(param: "p", start: 1, sizeParam: nil, size: nil))
            ),
            (
                #"{ type = "offset", param = "offset", limit_param = "limit", limit = 100 }"#,
                PaginationConfiguration(kind: .offset(param: "offset", limitParam: "limit", limit: 100))
            ),
            (
                #"{ type = "cursor", cursor_path = "message.next-cursor", param = "cursor", repeat_cursor = true }"#,
                PaginationConfiguration(
                    kind: .cursor(
                        path: try JSONPath(parsing: "message.next-cursor"), from: .body, to: .query("cursor"),
                        repeats: true))
            ),
            (
                #"{ type = "cursor", cursor_path = "c", param = "c", repeat_cursor = false, last_page_path = "end" }"#,
                PaginationConfiguration(
                    kind: .cursor(path: try JSONPath(parsing: "c"), from: .body, to: .query("c")),
                    lastPagePath: try JSONPath(parsing: "end"))
            ),
            (
                #"{ type = "offset", param = "start", limit = 25, last_page_path = "isLastPage" }"#,
                PaginationConfiguration(
                    kind: .offset(param: "start", limitParam: nil, limit: 25),
                    lastPagePath: try JSONPath(parsing: "isLastPage"))
            ),
        ]
        for (text, expected) in cases {
            let configuration = try SyncConfiguration.parse(
                Self.endpoint(text) + "\n[endpoint.columns]\nid = \"id\"", sourcePath: "syncd.toml")
            #expect(configuration.plans.first?.pagination == expected, "\(text)")
        }
    }

    @Test("bad pagination tables are refused with the line and the key")
    func problems() {
        let cases: [(String, String)] = [
            (#""link""#, #"pagination must be an inline table such as { type = "link" }"#),
            (#"{ max_pages = 3 }"#, #"pagination: missing "type" (link, cursor, next_url, page or offset)"#),
            (#"{ type = "pages" }"#, #"pagination: type must be "link", "cursor", "next_url", "page" or "offset""#),
            (#"{ type = "cursor", param = "c" }"#, #"pagination: type "cursor" needs "cursor_path""#),
            (#"{ type = "next_url" }"#, #"pagination: type "next_url" needs "path""#),
            (#"{ type = "offset", param = "o" }"#, #"pagination: type "offset" needs "limit""#),
            (#"{ type = "link", param = "p" }"#, #"pagination: unknown key "param" for type "link""#),
            (#"{ type = "page", param = "p", size = 0 }"#, "pagination: size must be a whole number from 1 to 1000000"),
            (
                #"{ type = "offset", param = "o", limit = -1 }"#,
                "pagination: limit must be a whole number from 1 to 1000000"
            ),
            (#"{ type = "link", max_pages = 0 }"#, "pagination: max_pages must be a whole number from 1 to 1000000"),
            (
                #"{ type = "page", param = "p", start = -1 }"#,
                "pagination: start must be a whole number from 0 to 1000000000"
            ),
            (
                #"{ type = "page", param = "p", size_param = "n" }"#,
                #"pagination: "size_param" needs "size", the number of records a page holds"#
            ),
            (#"{ type = "next_url", path = "$" }"#, #"pagination: path must name a value inside the body, not "$""#),
            (
                #"{ type = "cursor", cursor_path = "a..b", param = "c" }"#,
                #"pagination: cursor_path: invalid JSON path "a..b": a name is missing before a dot"#
            ),
            (
                #"{ type = "cursor", cursor_path = "a", param = "" }"#,
                "pagination: param must be the name of a query parameter"
            ),
            (
                #"{ type = "link", has_more_path = "more", last_page_path = "last" }"#,
                "pagination: set has_more_path (true while more pages follow) or last_page_path (true on the last "
                    + "page), not both"
            ),
            (
                #"{ type = "link", last_page_path = "$" }"#,
                #"pagination: last_page_path must name a value inside the body, not "$""#
            ),
            (
                #"{ type = "cursor", cursor_path = "a", param = "c", repeat_cursor = "yes" }"#,
                "pagination: repeat_cursor must be true (the cursor may stay the same from page to page) or false"
            ),
            (
                #"{ type = "cursor", from = "last_record", cursor_path = "id", param = "c", repeat_cursor = true }"#,
                "pagination: repeat_cursor is for a cursor read from the body, not from each page's last record"
            ),
            (
                #"{ type = "page", param = "p", repeat_cursor = true }"#,
                #"pagination: unknown key "repeat_cursor" for type "page""#
            ),
        ]
        for (pagination, message) in cases {
            let text = Self.endpoint(pagination) + "\n[endpoint.columns]\nid = \"id\""
            #expect(
                configurationProblems(text) == [#"syncd.toml:6: [[endpoint]] "users": \#(message)"#], "\(pagination)")
        }
    }

    @Test("pagination in [defaults] goes to the collections, not to the documents")
    func fromDefaults() throws {
        let text = """
            [defaults]
            pagination = { type = "link", max_pages = 9 }
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            \(Self.endpoint(#"{ type = "next_url", path = "next" }"#))
            [endpoint.columns]
            id = "id"
            [[endpoint]]
            name = "orders"
            url = "https://example.com/orders"
            records = "$"
            primary_key = "id"
            [endpoint.columns]
            id = "id"
            """
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        #expect(configuration.plan(named: "flags")?.pagination == nil)
        #expect(configuration.plan(named: "users")?.pagination?.kindName == "next_url")
        #expect(
            configuration.plan(named: "orders")?.pagination == PaginationConfiguration(kind: .link, maxPages: 9))
    }

    @Test("a document endpoint takes no pagination")
    func documentEndpoint() {
        #expect(
            configurationProblems(Self.endpoint(#"{ type = "link" }"#, records: false)) == [
                #"syncd.toml:6: [[endpoint]] "users": a document endpoint (no "records") takes no "pagination""#
            ])
    }
}
