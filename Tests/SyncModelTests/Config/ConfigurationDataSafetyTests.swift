import SyncTesting
import Testing

@testable import SyncCore

/// The keys that keep stored data from being lost by accident: `max_delete`, `total_path`, and pagination paths
/// that must lie outside the records.
@Suite("Configuration: max_delete, total_path and paths outside the records")
struct ConfigurationDataSafetyTests {
    static func endpoint(_ lines: String, records: String = "data") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "https://example.com/users"
        records = "\(records)"
        primary_key = "id"
        \(lines)
        [endpoint.columns]
        id = "id"
        """
    }

    @Test("max_delete is 50% by default, and takes a share or a number of rows, in [defaults] too")
    func maxDelete() throws {
        let plain = try SyncConfiguration.parse(Self.endpoint(""), sourcePath: "syncd.toml")
        #expect(plain.plans.first?.maxDelete == .default)
        #expect(plain.plans.first?.maxDelete.description == #""50%""#)
        let share = try SyncConfiguration.parse(Self.endpoint(#"max_delete = "10%""#), sourcePath: "syncd.toml")
        #expect(share.plans.first?.maxDelete == SyncEndpoint.DeletionLimit.percent(10))
        let rows = try SyncConfiguration.parse("[defaults]\nmax_delete = 3\n" + Self.endpoint(""), sourcePath: "s.toml")
        #expect(rows.plans.first?.maxDelete == SyncEndpoint.DeletionLimit.rows(3))
    }

    @Test("a share is rounded up: a snapshot may always delete one row unless the share is 0%")
    func deletionLimitRounding() throws {
        let half = SyncEndpoint.DeletionLimit.default
        #expect([0, 1, 2, 3, 4, 101, 300].map { half.allowed(stored: $0) } == [0, 1, 1, 2, 2, 51, 150])
        #expect(SyncEndpoint.DeletionLimit.percent(0).allowed(stored: 1000) == 0)
        #expect(SyncEndpoint.DeletionLimit.percent(100).allowed(stored: Int.max) == Int.max)
        #expect(SyncEndpoint.DeletionLimit.rows(7).allowed(stored: 2) == 7)
    }

    @Test(
        "a bad max_delete is refused with the line, the key and the allowed values",
        arguments: [#""101%""#, #""-1%""#, #""50""#, #""%""#, #""5.5%""#, "-1", "true"])
    func badMaxDelete(_ value: String) {
        #expect(
            configurationProblems(Self.endpoint("max_delete = \(value)")) == [
                #"syncd.toml:6: [[endpoint]] "users": max_delete must be a share of the stored rows from "0%" to "100%" (such as "50%") or a whole number of rows of at least 0"#
            ])
    }

    @Test("total_path is read with the other pagination paths")
    func totalPath() throws {
        let pagination = #"pagination = { type = "page", param = "page", total_path = "meta.total" }"#
        let configuration = try SyncConfiguration.parse(Self.endpoint(pagination), sourcePath: "syncd.toml")
        #expect(configuration.plans.first?.pagination?.totalPath == (try JSONPath(parsing: "meta.total")))
        #expect(configuration.plans.first?.pagination?.capturedPaths == [try JSONPath(parsing: "meta.total")])
    }

    @Test(
        "a pagination path inside the records array is refused with the line and the key",
        arguments: [
            (#"{ type = "cursor", cursor_path = "data[9].id", param = "c" }"#, "cursor_path", "data[9].id"),
            (#"{ type = "next_url", path = "data[0].next" }"#, "path", "data[0].next"),
            (#"{ type = "link", has_more_path = "data" }"#, "has_more_path", "data"),
            (#"{ type = "page", param = "p", total_path = "data.total" }"#, "total_path", "data.total"),
        ])
    func pathInsideRecords(_ pagination: String, key: String, path: String) {
        #expect(
            configurationProblems(Self.endpoint("pagination = \(pagination)")) == [
                #"syncd.toml:6: [[endpoint]] "users": pagination: \#(key) "\#(path)" lies inside the records array ("data"); it must name a value outside the records, such as "meta.next""#
            ])
    }

    @Test("a pagination path from [defaults] is checked against each endpoint's records, at the [defaults] line")
    func pathInsideRecordsFromDefaults() {
        let text = """
            [defaults]
            pagination = { type = "cursor", cursor_path = "items[0].id", param = "c" }
            \(Self.endpoint("", records: "items"))
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:2: [[endpoint]] "users": pagination: cursor_path "items[0].id" lies inside the records array ("items"); it must name a value outside the records, such as "meta.next""#
            ])
    }
}
