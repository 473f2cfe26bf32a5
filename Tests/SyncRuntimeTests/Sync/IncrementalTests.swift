import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncRuntime
@testable import SyncSQLite

/// Incremental endpoints send the highest stored cursor value (less the lag), upsert only, delete flagged records
/// with a tombstone, and advance the cursor only with the rows of a run that was applied.
@Suite("sync: incremental")
struct IncrementalTests {
    @Test("the initial value first, then the highest stored timestamp less the lag; nothing is deleted by absence")
    func cursorAdvances() async throws {
        try await withTestUpstream { upstream in
            let answers = SharedValue([
                IncrementalFixture.items([(1, "2024-05-01T10:00:00Z"), (2, "2024-05-01T10:00:00.25+00:00")]),
                IncrementalFixture.items([(3, "2024-05-01T09:00:00Z")]),
                IncrementalFixture.items([]),
            ])
            upstream.route("/items") { _ in
                var list = answers.value
                let body = list.count > 1 ? list.removeFirst() : list[0]
                answers.value = list
                return jsonAnswer(body)
            }
            let incremental =
                #"{ param = "since", column = "updated_at", initial = "2020-01-01T00:00:00Z", lag = "5m" }"#
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(upstream.url("/items?x=1"), incremental: incremental))
            let first = try await fixture.sync("items")
            #expect(first.outcome == .changed && first.inserted == 2)
            let cursor = try fixture.scalar("SELECT cursor FROM syncd_endpoints")
            #expect(cursor == .text("2024-05-01T10:00:00.250Z"), "10:00:00.25 is after 10:00:00")
            let second = try await fixture.sync("items")
            #expect(second.outcome == .changed && second.inserted == 1 && second.deleted == 0)
            // An older record does not move the cursor back.
            #expect(try fixture.scalar("SELECT cursor FROM syncd_endpoints") == cursor)
            let third = try await fixture.sync("items")
            #expect(third.outcome == .unchanged && third.deleted == 0)
            #expect(try IncrementalFixture.ids(fixture) == [1, 2, 3])
            #expect(
                upstream.requests.map { $0.query["since"] } == [
                    "2020-01-01T00:00:00Z", "2024-05-01T09:55:00.250Z", "2024-05-01T09:55:00.250Z",
                ])
            #expect(upstream.requests.allSatisfy { $0.query["x"] == "1" })
        }
    }

    @Test("without an initial value the first request has no cursor; an integer column has no lag")
    func integerCursor() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/items") { request in
                jsonAnswer(
                    request.query["after"] == nil
                        ? IncrementalFixture.items([(7, "2024-01-01"), (3, "2024-01-02")])
                        : IncrementalFixture.items([]))
            }
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(
                    upstream.url("/items"), incremental: #"{ param = "after", column = "id" }"#))
            _ = try await fixture.sync("items")
            _ = try await fixture.sync("items")
            #expect(upstream.requests.map { $0.query["after"] } == [nil, "7"])
        }
    }

    @Test("a record whose deleted flag is true deletes its row and leaves a tombstone")
    func deletedFlag() async throws {
        try await withTestUpstream { upstream in
            let body = SharedValue(IncrementalFixture.items([(1, "2024-05-01"), (2, "2024-05-02"), (3, "2024-05-03")]))
            upstream.route("/items") { _ in jsonAnswer(body.value) }
            let incremental = #"{ param = "since", column = "updated_at", deleted_flag = "gone" }"#
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(upstream.url("/items"), incremental: incremental))
            _ = try await fixture.sync("items")
            body.value = IncrementalFixture.items(
                [(2, "2024-05-04"), (4, "2024-05-05"), (9, "2024-05-06")], deleted: [2, 9])
            let report = try await fixture.sync("items")
            #expect(report.outcome == .changed && report.deleted == 1 && report.inserted == 1)
            #expect(try IncrementalFixture.ids(fixture) == [1, 3, 4])
            let tombstones = try fixture.rows("SELECT key, version FROM syncd_tombstones")
            #expect(
                tombstones.map { $0.text("key") } == ["2"] && tombstones.first?.integer("version") == report.version)
            #expect(try fixture.scalar("SELECT cursor FROM syncd_endpoints") == .text("2024-05-06T00:00:00.000Z"))
        }
    }

    @Test("with pagination: the cursor goes with the first page, and advances only when every page was applied")
    func withPagination() async throws {
        try await withTestUpstream { upstream in
            let failing = SharedValue(false)
            upstream.route("/items") { request in
                if request.query["page"] == "2" {
                    if failing.value { return jsonAnswer("{}", status: 500) }
                    return jsonAnswer(IncrementalFixture.items([(2, "2024-06-02")]))
                }
                let next = "</items?page=2&since=\(request.query["since"] ?? "")>; rel=next"
                return jsonAnswer(IncrementalFixture.items([(1, "2024-06-01")]), headers: [("Link", next)])
            }
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(
                    upstream.url("/items"), incremental: #"{ param = "since", column = "updated_at", initial = "0" }"#,
                    extra: "pagination = { type = \"link\" }\nretries = 0"))
            let first = try await fixture.sync("items")
            #expect(first.outcome == .changed && first.pages == 2 && first.inserted == 2)
            failing.value = true
            let failed = try await fixture.sync("items")
            #expect(failed.outcome == .failed)
            #expect(try fixture.scalar("SELECT cursor FROM syncd_endpoints") == .text("2024-06-02T00:00:00.000Z"))
            failing.value = false
            _ = try await fixture.sync("items")
            #expect(
                upstream.requests.map { $0.query["since"] } == [
                    "0", "0", "2024-06-02T00:00:00.000Z", "2024-06-02T00:00:00.000Z", "2024-06-02T00:00:00.000Z",
                    "2024-06-02T00:00:00.000Z",
                ])
        }
    }

    @Test("lag moves a timestamp back across days and keeps its fraction")
    func lagArithmetic() throws {
        #expect(
            IncrementalCursor.subtracting(.seconds(300), from: "2024-03-01T00:02:00.5Z") == "2024-02-29T23:57:00.500Z")
        #expect(
            IncrementalCursor.subtracting(.milliseconds(500), from: "2024-05-01T10:00:00Z")
                == "2024-05-01T09:59:59.500Z")
        #expect(IncrementalCursor.subtracting(.seconds(1), from: "not a time") == nil)
    }
}

@Suite("Configuration: incremental")
struct ConfigurationIncrementalTests {
    static func endpoint(_ incremental: String, mode: String = "incremental", columns: String = #"updated_at = "u""#)
        -> String
    {
        """
        [[endpoint]]
        name = "items"
        url = "https://example.com/items"
        records = "items"
        primary_key = "id"
        mode = "\(mode)"
        incremental = \(incremental)
        [endpoint.columns]
        id = "id"
        \(columns)
        """
    }

    @Test("bad incremental tables are refused with the line and the key")
    func problems() {
        let cases: [(String, String, String, String)] = [
            (#"{ param = "s" }"#, "incremental", #"updated_at = "u""#, #"incremental: missing "column""#),
            (#"{ column = "updated_at" }"#, "incremental", #"updated_at = "u""#, #"incremental: missing "param""#),
            (
                #"{ param = "s", column = "nope" }"#, "incremental", #"updated_at = "u""#,
                #"incremental: column "nope" is not in [endpoint.columns]"#
            ),
            (
                #"{ param = "s", column = "updated_at", lag = "5m" }"#, "incremental", #"updated_at = "u""#,
                #"incremental: lag needs a timestamp column; "updated_at" is text"#
            ),
            (
                #"{ param = "s", column = "updated_at", lag = "soon" }"#, "incremental", #"updated_at = "u""#,
                #"incremental: lag must be a duration such as "5m""#
            ),
            (
                #"{ param = "s", column = "updated_at", since = 1 }"#, "incremental", #"updated_at = "u""#,
                #"incremental: unknown key "since""#
            ),
            (
                #"{ param = "s", column = "updated_at" }"#, "snapshot", #"updated_at = "u""#,
                #"incremental needs mode = "incremental""#
            ),
            (
                #""updated_at""#, "incremental", #"updated_at = "u""#,
                #"incremental must be an inline table such as { param = "updated_since", column = "updated_at" }"#
            ),
        ]
        for (incremental, mode, columns, message) in cases {
            #expect(
                configurationProblems(Self.endpoint(incremental, mode: mode, columns: columns)) == [
                    #"syncd.toml:7: [[endpoint]] "items": \#(message)"#
                ], "\(incremental)")
        }
    }

    @Test("a valid table is read with its column, initial value, lag and deleted flag")
    func valid() throws {
        let text = Self.endpoint(
            #"{ param = "s", column = "updated_at", initial = "2020-01-01T00:00:00Z", lag = "5m", deleted_flag = "meta.deleted" }"#,
            columns: #"updated_at = { path = "u", type = "timestamp" }"#)
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        #expect(
            configuration.plans.first?.incremental
                == IncrementalConfiguration(
                    param: "s", column: 1, initial: "2020-01-01T00:00:00Z", lag: .seconds(300),
                    deletedFlag: try JSONPath(parsing: "meta.deleted")))
    }
}
