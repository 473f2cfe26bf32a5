import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// One model of an endpoint: syncd.toml and Swift fill the same options, checked by the same rules, in the same words.
@Suite("library: one endpoint model for TOML and Swift")
struct SyncEndpointModelTests {
    static let toml = """
        [[endpoint]]
        name = "users"
        url = "https://api.example.com/users"
        records = "data"
        primary_key = "id"
        mode = "incremental"
        interval = "10m"
        jitter = 0.2
        timeout = "45s"
        max_body = "8MiB"
        max_record = "64KiB"
        strict = true
        allow_empty = true
        max_delete = 25
        retries = 5
        retry_max_delay = "2m"
        headers = { Accept = "application/json" }
        auth = { type = "basic", username = "me", password_env = "USERS_PASSWORD" }
        pagination = { type = "cursor", cursor_path = "meta.next", param = "after", has_more_path = "meta.more", max_pages = 50 }
        incremental = { param = "since", column = "updated_at", initial = "2024-01-01T00:00:00Z", lag = "5m", deleted_flag = "deleted" }
        rate_limit = "600/m"
        rate_limit_scope = "host"

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "profile.name"
        updated_at = { type = "timestamp", required = true }
        """

    static var swift: SyncEndpoint {
        var users = SyncEndpoint(
            name: "users", url: "https://api.example.com/users", records: "data", primaryKey: ["id"],
            columns: [
                .init("id", type: .integer), .init("name", path: "profile.name"),
                .init("updated_at", type: .timestamp, required: true),
            ],
            interval: .seconds(600), jitter: 0.2, timeout: .seconds(45), headers: ["Accept": "application/json"],
            upsertOnly: true)
        users.maxBody = 8 << 20
        users.maxRecord = 64 << 10
        users.strict = true
        users.allowEmpty = true
        users.maxDelete = .rows(25)
        users.retries = 5
        users.retryMaxDelay = .seconds(120)
        users.credential = .basic(username: "me", password: .environment("USERS_PASSWORD"))
        users.pagination = .cursor(path: "meta.next", param: "after", maxPages: 50, hasMorePath: "meta.more")
        users.incremental = .init(
            param: "since", column: "updated_at", initial: "2024-01-01T00:00:00Z", lag: .seconds(300),
            deletedFlag: "deleted")
        users.rateLimit = .perMinute(600)
        users.rateLimitScope = .host
        return users
    }

    @Test("every option written in TOML and set in Swift gives the same endpoint")
    func sameEndpoint() throws {
        var fromTOML = try #require(try SyncConfiguration(toml: Self.toml).plans.first)
        fromTOML.line = 0  // where it was written: the one thing Swift has not
        let fromSwift = try #require(try SyncConfiguration(endpoints: [Self.swift]).plans.first)
        #expect(fromSwift == fromTOML)
        #expect(fromSwift.pagination?.maxPages == 50 && fromSwift.incremental?.column == 2)
        #expect(fromSwift.columns.first?.required == true, "a key column is required")
    }

    @Test("the defaults are one: an endpoint left to them is the same from TOML, from Swift and in the engine")
    func sameDefaults() throws {
        let toml = "[[endpoint]]\nname = \"flags\"\nurl = \"https://example.com/flags\"\n"
        var fromTOML = try #require(try SyncConfiguration(toml: toml).plans.first)
        fromTOML.line = 0
        let swift = SyncEndpoint(name: "flags", url: "https://example.com/flags")
        let fromSwift = try #require(try SyncConfiguration(endpoints: [swift]).plans.first)
        let engine = EndpointConfiguration(
            name: try SQLIdentifier(validating: "flags"), url: "https://example.com/flags")
        #expect(fromSwift == fromTOML && fromSwift == engine)
        #expect(APIClient.Configuration().maxBodyBytes == EndpointConfiguration.defaultMaxBody)
        #expect(APIClient.Configuration().timeout == EndpointConfiguration.defaultTimeout)
    }

    @Test("repeat_cursor, last_page_path and total_path set in Swift give the endpoints TOML gives")
    func pagingOptions() throws {
        let toml = """
            [[endpoint]]
            name = "works"
            url = "https://api.crossref.org/works?rows=100&cursor=*"
            records = "message.items"
            primary_key = "doi"
            pagination = { type = "cursor", cursor_path = "message.next-cursor", param = "cursor", repeat_cursor = true, total_path = "message.total-results" }
            columns = { doi = "DOI" }
            [[endpoint]]
            name = "repos"
            url = "https://bitbucket.example/rest/api/1.0/projects/PRJ/repos"
            records = "values"
            primary_key = "slug"
            pagination = { type = "offset", param = "start", limit_param = "limit", limit = 25, last_page_path = "isLastPage" }
            columns = { slug = "slug" }
            """
        let fromTOML = try SyncConfiguration(toml: toml).plans.map {
            var endpoint = $0
            endpoint.line = 0
            return endpoint
        }
        var works = SyncEndpoint(
            name: "works", url: "https://api.crossref.org/works?rows=100&cursor=*", records: "message.items",
            primaryKey: ["doi"], columns: [.init("doi", path: "DOI")])
        works.pagination = .cursor(
            path: "message.next-cursor", param: "cursor", repeatCursor: true, totalPath: "message.total-results")
        var repos = SyncEndpoint(
            name: "repos", url: "https://bitbucket.example/rest/api/1.0/projects/PRJ/repos", records: "values",
            primaryKey: ["slug"], columns: [.init("slug")])
        repos.pagination = .offset(param: "start", limit: 25, limitParam: "limit", lastPagePath: "isLastPage")
        let fromSwift = try SyncConfiguration(endpoints: [works, repos]).plans
        #expect(fromSwift == fromTOML)
        #expect(fromSwift.first?.pagination?.repeatsCursor == true)
        #expect(fromSwift.last?.pagination?.lastPagePath?.description == "isLastPage")
    }

    /// A problem written both ways, and the sentence both give.
    static let problems: [(swift: @Sendable (inout SyncEndpoint) -> Void, toml: String, sentence: String)] = [
        (
            { $0.pagination = .cursor(path: "$", param: "after") },
            #"pagination = { type = "cursor", cursor_path = "$", param = "after" }"#,
            #"pagination: cursor_path must name a value inside the body, not "$""#
        ),
        (
            { $0.pagination = .nextURL(path: "data[9].next") },
            #"pagination = { type = "next_url", path = "data[9].next" }"#,
            #"pagination: path "data[9].next" lies inside the records array ("data")"#
        ),
        (
            { $0.pagination = .page(param: "p", sizeParam: "per_page") },
            #"pagination = { type = "page", param = "p", size_param = "per_page" }"#,
            #"pagination: "size_param" needs "size", the number of records a page holds"#
        ),
        (
            { $0.pagination = .offset(param: "", limit: 0) },
            #"pagination = { type = "offset", param = "", limit = 0 }"#,
            "pagination: param must be the name of a query parameter"
        ),
        (
            { $0.pagination = .link(hasMorePath: "more", lastPagePath: "last") },
            #"pagination = { type = "link", has_more_path = "more", last_page_path = "last" }"#,
            "pagination: set has_more_path (true while more pages follow) or last_page_path (true on the last page), "
                + "not both"
        ),
        (
            { $0.pagination = .cursor(path: "id", param: "after", from: .lastRecord, repeatCursor: true) },
            #"pagination = { type = "cursor", from = "last_record", cursor_path = "id", param = "after", repeat_cursor = true }"#,
            "pagination: repeat_cursor is for a cursor read from the body, not from each page's last record"
        ),
        (
            { $0.incremental = .init(param: "since", column: "id") },
            #"incremental = { param = "since", column = "id" }"#,
            #"incremental needs mode = "incremental""#
        ),
        (
            {
                $0.upsertOnly = true
                $0.incremental = .init(param: "since", column: "id", lag: .seconds(60))
            },
            "mode = \"incremental\"\nincremental = { param = \"since\", column = \"id\", lag = \"1m\" }",
            #"incremental: lag needs a timestamp column; "id" is integer"#
        ),
        ({ $0.rateLimit = .perSecond(0) }, #"rate_limit = "0/s""#, "rate_limit must"),
        ({ $0.maxDelete = .percent(101) }, #"max_delete = "101%""#, "max_delete must be a share of the stored rows"),
        ({ $0.maxBody = 0 }, "max_body = 0", "max_body must be between 1B and 2GiB"),
        ({ $0.retries = 101 }, "retries = 101", "retries must be a whole number from 0 to 100"),
        (
            { $0.credential = .header(name: "Bad Name", value: .literal("k")) },
            #"auth = { type = "header", name = "Bad Name", value_env = "K" }"#,
            #"auth: "Bad Name" is not a valid header name"#
        ),
        (
            { $0.credential = .basic(username: "a:b", password: .literal("k")) },
            #"auth = { type = "basic", username = "a:b", password_env = "K" }"#,
            #"auth: username must not contain ":""#
        ),
    ]

    @Test("a problem set in Swift is refused in the sentence the TOML file gets", arguments: problems.indices)
    func sameWords(_ index: Int) throws {
        let (change, toml, sentence) = Self.problems[index]
        var endpoint = SyncEndpoint(
            name: "users", url: "https://example.com/users", records: "data", primaryKey: ["id"],
            columns: [.init("id", type: .integer)])
        change(&endpoint)
        #expect {
            try SyncConfiguration(endpoints: [endpoint])
        } throws: { error in
            "\(error)".hasPrefix(#"endpoint "users": "#) && "\(error)".contains(sentence)
        }
        let text = """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            records = "data"
            primary_key = "id"
            \(toml)
            columns = { id = { type = "integer" } }
            """
        #expect {
            try SyncConfiguration(toml: text)
        } throws: { error in
            "\(error)".contains(sentence)
        }
    }

    @Test("a document endpoint built in Swift takes no collection options, as in TOML")
    func documentOptions() {
        var endpoint = SyncEndpoint(name: "settings", url: "https://example.com/settings")
        endpoint.pagination = .link()
        endpoint.upsertOnly = true
        #expect {
            try SyncConfiguration(endpoints: [endpoint])
        } throws: { error in
            "\(error)"
                == """
                endpoint "settings": a document endpoint (no "records") takes no "pagination"
                endpoint "settings": a document endpoint (no "records") takes no "mode"
                """
        }
    }

    @Test("an endpoint built in Swift with a credential and pagination syncs every page, authenticated")
    func pagedAndAuthenticated() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                guard request.header("Authorization") == "Bearer t0ken" else { return jsonAnswer("{}", status: 401) }
                let after = Int(request.query["after"] ?? "0") ?? 0
                let more = after < 2
                return jsonAnswer(
                    #"{"data": \#(recordsJSON([after + 1])), "meta": {"next": "\#(after + 1)", "more": \#(more)}}"#)
            }
            let files = try TemporaryDirectory()
            var users = SyncEndpoint(
                name: "users", url: upstream.url("/users"), records: "data", primaryKey: ["id"],
                columns: [.init("id", type: .integer), .init("name")])
            users.credential = .bearer(.literal("t0ken"))
            users.pagination = .cursor(path: "meta.next", param: "after", hasMorePath: "meta.more")
            let syncer = try SyncCache(
                path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [users]))
            let summary = try await syncer.sync("users")
            #expect(summary.outcome == .changed && summary.records == 3, "\(summary)")
            #expect(upstream.requests.count == 3)
            #expect(upstream.requests.allSatisfy { $0.header("Authorization") == "Bearer t0ken" })
            try await syncer.shutdown()
        }
    }
}
