import SyncTesting
import Testing

@testable import SyncCore

@Suite("Unknown and unsupported keys are refused with their line")
struct ConfigurationUnknownKeyTests {
    /// A whole file whose one mistake is `intervall` on line 14 (the configuration reference shows its refusal too).
    static let misspeltInterval = """
        database = "cache.db"

        [server]
        listen = "127.0.0.1:8787"

        [defaults]
        interval = "5m"

        [[endpoint]]
        name = "users"
        url = "https://example.com/api/users"
        records = "data.items"
        primary_key = ["id"]
        intervall = "10m"

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """

    @Test("an unknown [[endpoint]] key names the file, the line, the endpoint and the key")
    func unknownEndpointKey() {
        #expect(
            configurationProblems(Self.misspeltInterval)
                == [#"syncd.toml:14: [[endpoint]] "users": unknown key "intervall""#])
    }

    @Test("unknown keys at the top level, in [server], [defaults], columns, column tables and auth")
    func unknownKeysEverywhere() {
        let text = """
            databse = "cache.db"
            [server]
            port = 8787
            [defaults]
            intervall = "5m"
            [[endpoint]]
            name = "users"
            url = "https://example.com/api/users"
            auth = { type = "bearer", tokn_env = "T", token_env = "U" }
            records = "$"
            primary_key = "id"
            [endpoint.columns]
            id = { path = "id", requird = true }
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:1: unknown key "databse""#,
                #"syncd.toml:3: [server]: unknown key "port""#,
                #"syncd.toml:5: [defaults]: unknown key "intervall""#,
                #"syncd.toml:9: [[endpoint]] "users": auth: unknown key "tokn_env" for type "bearer""#,
                #"syncd.toml:13: [endpoint.columns] of "users": column "id": unknown key "requird""#,
            ]
        )
    }

    @Test("keys in the wrong place")
    func keysInTheWrongPlace() {
        let text = """
            [defaults]
            url = "https://example.com"
            records = "$"

            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            concurrency = 2
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:2: [defaults]: "url" is set in each [[endpoint]], not in [defaults]"#,
                #"syncd.toml:3: [defaults]: "records" is set in each [[endpoint]], not in [defaults]"#,
                #"syncd.toml:8: [[endpoint]] "flags": "concurrency" is only valid in [defaults]"#,
            ]
        )
    }

    @Test("quoted, dotted and multi-line keys get their own lines")
    func quotedAndDottedKeys() {
        let text = """
            server.listen = "off"
            server."token file" = "x"
            notes = \"\"\"
            looks = "like a key"
            \"\"\"
            [[endpoint]]
            name = "flags"
            url = "https://example.com/flags.json"
            headers = [
                "Accept",
            ]
            'odd key' = 1
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:2: [server]: unknown key "token file""#,
                #"syncd.toml:3: unknown key "notes""#,
                #"syncd.toml:9: [[endpoint]] "flags": headers must be an inline table of strings such as { Accept = "application/json" }"#,
                #"syncd.toml:12: [[endpoint]] "flags": unknown key "odd key""#,
            ]
        )
    }
}

@Suite("Keys with characters a C reader would cut")
struct ConfigurationUnreachableKeyTests {
    @Test("a key with an escaped NUL is refused whole, on its own line")
    func keyWithEscapedNul() {
        #expect(
            configurationProblems(#"[server]"# + "\n" + #""list\u0000en" = "off""#) == [
                "syncd.toml:2: [server]: unknown key \"list\u{0}en\""
            ])
    }
}
