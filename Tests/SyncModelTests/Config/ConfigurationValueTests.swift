import SyncTesting
import Testing

@testable import SyncCore

@Suite("Values of the wrong type or form are refused with the expected form")
struct ConfigurationValueTests {
    /// The problems of one `[[endpoint]]` (line 1) holding `line` on line 4.
    static func endpointProblems(_ line: String) -> [String] {
        configurationProblems(
            """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            \(line)
            """
        )
    }

    @Test(
        "durations, sizes, numbers, booleans and modes",
        arguments: [
            (#"interval = 5"#, #"interval must be a duration such as "30s" or "5m""#),
            (#"interval = "5 minutes""#, #"interval must be a duration such as "30s" or "5m""#),
            (#"interval = "0s""#, "interval must be between 100ms and 30d"),
            (#"timeout = "-1s""#, #"timeout must be a duration such as "30s" or "5m""#),
            (#"timeout = 30"#, #"timeout must be a duration such as "30s" or "5m""#),
            (
                #"max_body = "64 megabytes""#,
                #"max_body must be a size such as "64MiB" or "512KiB", or a number of bytes"#
            ),
            (#"max_body = 1.5"#, #"max_body must be a size such as "64MiB" or "512KiB", or a number of bytes"#),
            (#"max_body = 0"#, "max_body must be between 1B and 2GiB"),
            (#"jitter = "10%""#, "jitter must be a number from 0 to 1"),
            (#"jitter = -0.1"#, "jitter must be a number from 0 to 1"),
            (#"strict = "false""#, "strict must be true or false"),
            (#"allow_empty = 1"#, "allow_empty must be true or false"),
            (#"records = ["data"]"#, #"records must be a JSON path such as "data.items" ("$" is the root)"#),
            (
                #"records = "data[x]""#,
                #"records: invalid JSON path "data[x]": an index is a number in brackets, like [0]"#
            ),
        ]
    )
    func wrongValues(line: String, message: String) {
        var problems = Self.endpointProblems(line)
        // A `records` that fails leaves the endpoint without its primary key: not this test's concern.
        problems.removeAll { $0.contains("missing \"primary_key\"") }
        #expect(problems == [#"syncd.toml:4: [[endpoint]] "users": \#(message)"#])
    }

    @Test(
        "URLs must be absolute http, https or file URLs",
        arguments: [
            "ftp://example.com/x", "example.com/users", "/srv/users.json", "https://", "https:///path",
            "file://relative/users.json", "file://", "http://exa mple.com/", "mailto:me@example.com", "",
        ]
    )
    func badURL(url: String) {
        #expect(
            configurationProblems("[[endpoint]]\nname = \"a\"\nurl = \"\(url)\"") == [
                #"syncd.toml:3: [[endpoint]] "a": url must be an absolute http://, https:// or file:// URL"#
            ]
        )
    }

    @Test(
        "good URLs are kept as written",
        arguments: [
            "https://example.com/api?x=1", "HTTP://example.com", "file:///srv/data/users.json",
            "file://localhost/srv/x.json", "http://[::1]:8080/x",
        ]
    )
    func goodURL(url: String) throws {
        let configuration = try SyncConfiguration.parse("[[endpoint]]\nname = \"a\"\nurl = \"\(url)\"", sourcePath: "x")
        #expect(configuration.plans.first?.url == url)
    }

    @Test("a URL is never quoted in a message: its query may hold a key")
    func urlNotQuoted() {
        let problems = configurationProblems("[[endpoint]]\nname = \"a\"\nurl = \"gopher://h/?api_key=k3y\"")
        #expect(problems.count == 1)
        #expect(!problems.joined().contains("k3y"))
    }

    @Test("headers: names are tokens, values are strings without CR, LF or NUL and are never quoted")
    func headers() {
        let text = #"""
            [[endpoint]]
            name = "a"
            url = "https://example.com"
            headers = { "Bad Name" = "x", Accept = 1, "X-Token" = "Bearer s3cr3t\r\nX-Evil: 1" }
            """#
        let problems = configurationProblems(text)
        #expect(
            problems == [
                #"syncd.toml:4: [[endpoint]] "a": headers: "Bad Name" is not a valid header name"#,
                #"syncd.toml:4: [[endpoint]] "a": headers: the value of "Accept" must be a string"#,
                #"syncd.toml:4: [[endpoint]] "a": headers: the value of "X-Token" must not contain CR, LF or NUL"#,
            ]
        )
        #expect(!problems.joined().contains("s3cr3t"))
    }

    @Test(
        "auth needs a known type and exactly one secret source",
        arguments: [
            (#"auth = "bearer""#, #"auth must be an inline table such as { type = "bearer", token_env = "TOKEN" }"#),
            (#"auth = { token_env = "T" }"#, #"auth: missing "type" (bearer, basic, header, query or oauth2)"#),
            (
                #"auth = { type = "oauth", token_env = "T" }"#,
                #"auth: type must be "bearer", "basic", "header", "query" or "oauth2""#
            ),
            (
                #"auth = { type = "bearer" }"#,
                #"auth: type "bearer" needs exactly one of token_env, token_file or credential"#
            ),
            (
                #"auth = { type = "bearer", token_env = "T", token_file = "/t" }"#,
                #"auth: type "bearer" needs exactly one of token_env, token_file or credential"#
            ),
            (#"auth = { type = "basic", password_env = "P" }"#, #"auth: type "basic" needs "username""#),
            (
                #"auth = { type = "basic", username = "a:b", password_env = "P" }"#,
                #"auth: username must not contain ":""#
            ),
            (
                #"auth = { type = "header", name = "X-Key", credential = "key", value_file = "/k" }"#,
                #"auth: type "header" needs exactly one of value_env, value_file or credential"#
            ),
            (
                #"auth = { type = "header", name = "X Key", value_env = "K" }"#,
                #"auth: "X Key" is not a valid header name"#
            ),
            (#"auth = { type = "query", value_env = "K" }"#, #"auth: type "query" needs "name""#),
            (
                #"auth = { type = "query", name = "k", value_env = "V", token_env = "K" }"#,
                #"auth: unknown key "token_env" for type "query""#
            ),
            (
                #"auth = { type = "bearer", token_env = "" }"#,
                "auth: token_env must be the name of an environment variable"
            ),
            (
                #"auth = { type = "bearer", credential = "../token" }"#,
                "auth: credential must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)"
            ),
            (
                #"auth = { type = "bearer", token_file = 1 }"#,
                "auth: token_file must be a path to a file holding the secret"
            ),
        ]
    )
    func badAuth(line: String, message: String) {
        #expect(Self.endpointProblems(line) == [#"syncd.toml:4: [[endpoint]] "users": \#(message)"#])
    }

    @Test(
        "every auth kind and secret source",
        arguments: [
            (#"{ type = "bearer", token_file = "/run/t" }"#, Credential.bearer(.file(path: "/run/t"))),
            (#"{ type = "bearer", credential = "users_token" }"#, .bearer(.systemdCredential("users_token"))),
            (
                #"{ type = "basic", username = "u", password_env = "P" }"#,
                .basic(username: "u", password: .environment("P"))
            ),
            (
                #"{ type = "query", name = "api_key", value_file = "k" }"#,
                .query(name: "api_key", value: .file(path: "/etc/k"))
            ),
        ]
    )
    func goodAuth(inline: String, credential: Credential) throws {
        let text = "[[endpoint]]\nname = \"a\"\nurl = \"https://example.com\"\nauth = \(inline)"
        let configuration = try SyncConfiguration.parse(text, sourcePath: "/etc/syncd.toml")
        #expect(configuration.plans.first?.auth == credential)
    }

    @Test("a name that is not a string")
    func nameNotString() {
        #expect(
            configurationProblems("[[endpoint]]\nname = 7\nurl = \"https://example.com\"") == [
                "syncd.toml:2: [[endpoint]] #1: name must be a string"
            ]
        )
    }

    @Test("a top-level database must be a non-empty string")
    func badDatabase() {
        let expected = ["syncd.toml:1: database must be a path to the database file, or a postgresql:// URL"]
        #expect(configurationProblems("database = 1") == expected)
        #expect(configurationProblems("database = \"\"") == expected)
    }
}
