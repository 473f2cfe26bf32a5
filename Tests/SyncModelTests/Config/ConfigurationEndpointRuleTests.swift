import SyncTesting
import Testing

@testable import SyncCore

@Suite("APIRequest rules: names, keys, documents and collections")
struct ConfigurationEndpointRuleTests {
    @Test("a document endpoint takes no primary_key, columns or mode")
    func documentEndpointKeys() {
        let text = """
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            primary_key = "id"
            mode = "incremental"
            [endpoint.columns]
            id = "id"
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:4: [[endpoint]] "flags": a document endpoint (no "records") takes no "primary_key""#,
                #"syncd.toml:5: [[endpoint]] "flags": a document endpoint (no "records") takes no "mode""#,
                #"syncd.toml:6: [[endpoint]] "flags": a document endpoint (no "records") takes no "columns""#,
            ]
        )
    }

    @Test("a mode from [defaults] does not make a document endpoint invalid")
    func documentEndpointWithDefaultMode() throws {
        let text = """
            [defaults]
            mode = "incremental"
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            """
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        #expect(configuration.plans.first?.isDocument == true)
    }

    @Test("a collection endpoint needs a primary key that names its columns")
    func primaryKeyRules() {
        let text = """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            records = "data"

            [[endpoint]]
            name = "orders"
            url = "https://example.com/orders"
            records = "data"
            primary_key = ["id", "line", "id"]
            [endpoint.columns]
            id = "id"

            [[endpoint]]
            name = "items"
            url = "https://example.com/items"
            records = "data"
            primary_key = []

            [[endpoint]]
            name = "tags"
            url = "https://example.com/tags"
            records = "data"
            primary_key = 1
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:1: [[endpoint]] "users": missing "primary_key": an endpoint with "records" needs one"#,
                #"syncd.toml:10: [[endpoint]] "orders": primary_key names "line", which is not in [endpoint.columns]"#,
                #"syncd.toml:10: [[endpoint]] "orders": primary_key names "id" twice"#,
                #"syncd.toml:18: [[endpoint]] "items": primary_key must be a column name or an array of column names"#,
                #"syncd.toml:24: [[endpoint]] "tags": primary_key must be a column name or an array of column names"#,
            ]
        )
    }

    @Test("duplicate endpoint names name both lines")
    func duplicateNames() {
        let text = """
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"

            [[endpoint]]
            name = "flags"
            url = "https://example.com/other.json"
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:6: [[endpoint]] "flags": the name "flags" is already used by the endpoint at line 1"#
            ]
        )
    }

    @Test("invalid and reserved endpoint and column names")
    func invalidNames() {
        let text = """
            [[endpoint]]
            name = "Users"
            url = "https://example.com/users"

            [[endpoint]]
            name = "syncd_runs"
            url = "https://example.com/runs"

            [[endpoint]]
            name = "sqlite_master"
            url = "https://example.com/master"

            [[endpoint]]
            name = "people"
            url = "https://example.com/people"
            records = "$"
            primary_key = "id"
            [endpoint.columns]
            id = "id"
            _raw = "raw"
            "First Name" = "first"
            """
        let rule = "use a lowercase letter, then up to 62 lowercase letters, digits or underscores"
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:2: [[endpoint]] "Users": "Users" is not a valid endpoint name: \#(rule)"#,
                #"syncd.toml:6: [[endpoint]] "syncd_runs": "syncd_runs" is not a valid endpoint name: names starting with "syncd_" or "sqlite_" are reserved"#,
                #"syncd.toml:10: [[endpoint]] "sqlite_master": "sqlite_master" is not a valid endpoint name: names starting with "syncd_" or "sqlite_" are reserved"#,
                #"syncd.toml:20: [endpoint.columns] of "people": "_raw" is not a valid column name: names starting with "_" are syncd's own (_raw, _version, _changed_at, _created_version)"#,
                #"syncd.toml:21: [endpoint.columns] of "people": "First Name" is not a valid column name: \#(rule)"#,
            ]
        )
    }

    @Test("missing name and url, and a nameless endpoint is named by its position")
    func missingKeys() {
        let text = """
            [[endpoint]]
            url = "https://example.com/a"

            [[endpoint]]
            name = "b"
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:1: [[endpoint]] #1: missing required key "name""#,
                #"syncd.toml:4: [[endpoint]] "b": missing required key "url""#,
            ]
        )
    }

    @Test("endpoint, server, defaults and columns must be tables")
    func wrongTableTypes() {
        let text = """
            server = "off"
            defaults = 1
            endpoint = { name = "a" }
            """
        #expect(
            configurationProblems(text) == [
                "syncd.toml:1: server must be a table: write [server]",
                "syncd.toml:2: defaults must be a table: write [defaults]",
                "syncd.toml:3: endpoint must be an array of tables: write [[endpoint]]",
            ]
        )
        let columns = """
            [[endpoint]]
            name = "a"
            url = "https://example.com/a"
            records = "$"
            primary_key = "id"
            columns = ["id"]
            """
        #expect(
            configurationProblems(columns) == [
                #"syncd.toml:6: [[endpoint]] "a": columns must be a table: write [endpoint.columns] after the endpoint's keys"#
            ]
        )
    }

    @Test("a [endpoint] table instead of [[endpoint]] is refused")
    func singleEndpointTable() {
        let text = """
            [endpoint]
            name = "a"
            url = "https://example.com/a"
            """
        #expect(
            configurationProblems(text) == ["syncd.toml:1: endpoint must be an array of tables: write [[endpoint]]"])
    }

    @Test("several problems are reported together, in line order")
    func severalProblemsInLineOrder() {
        let text = """
            [[endpoint]]
            name = "users"
            url = "ftp://example.com/users"
            interval = 5
            records = "data..items"
            primary_key = "id"
            mode = "mirror"
            [endpoint.columns]
            id = { path = "id", type = "int" }
            name = { path = "name", required = "yes" }
            [defaults]
            jitter = 2
            concurrency = 0
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:3: [[endpoint]] "users": url must be an absolute http://, https:// or file:// URL"#,
                #"syncd.toml:4: [[endpoint]] "users": interval must be a duration such as "30s" or "5m""#,
                #"syncd.toml:5: [[endpoint]] "users": records: invalid JSON path "data..items": a name is missing before a dot"#,
                #"syncd.toml:7: [[endpoint]] "users": mode must be "snapshot" or "incremental""#,
                #"syncd.toml:9: [endpoint.columns] of "users": column "id": type must be one of integer, real, text, boolean, json, timestamp"#,
                #"syncd.toml:10: [endpoint.columns] of "users": column "name": required must be true or false"#,
                "syncd.toml:12: [defaults]: jitter must be a number from 0 to 1",
                "syncd.toml:13: [defaults]: concurrency must be an integer from 1 to 64",
            ]
        )
    }
}
