import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("Defaults, [defaults] and per-endpoint values")
struct ConfigurationDefaultsTests {
    @Test("built-in defaults apply when nothing is set")
    func builtInDefaults() throws {
        let configuration = try SyncConfiguration.parse(
            """
            [[endpoint]]
            name = "flags"
            url = "file:///srv/flags.json"
            """,
            sourcePath: "/etc/syncd/syncd.toml"
        )
        let flags = try #require(configuration.plans.first)
        #expect(configuration.databasePath == nil)
        #expect(
            configuration.server
                == SyncConfiguration.Server(listen: .tcp(host: "127.0.0.1", port: 8787), tokenFile: nil))
        #expect(configuration.concurrency == 4)
        #expect(flags.interval == .seconds(300))
        #expect(flags.jitter == 0.1)
        #expect(flags.timeout == .seconds(30))
        #expect(flags.maxBody == 67_108_864)
        #expect(flags.mode == .snapshot)
        #expect(flags.headers.isEmpty)
        #expect(flags.auth == nil)
        #expect(!flags.strict)
        #expect(!flags.allowEmpty)
        #expect(flags.line == 1)
    }

    static let layered = """
        [defaults]
        interval = "1h"
        jitter = 0.5
        timeout = "10s"
        max_body = 1024
        mode = "incremental"
        headers = { Accept = "application/json", "User-Agent" = "syncd" }
        auth = { type = "header", name = "X-Api-Key", value_env = "API_KEY" }
        strict = true
        allow_empty = true
        concurrency = 8

        [[endpoint]]
        name = "inherits"
        url = "https://example.com/a"
        records = "$"
        primary_key = "id"
        [endpoint.columns]
        id = { type = "integer" }

        [[endpoint]]
        name = "overrides"
        url = "http://example.com/b"
        interval = "1h30m"
        jitter = 0
        timeout = "500ms"
        max_body = "10MB"
        headers = { Accept = "text/plain" }
        auth = { type = "basic", username = "me", password_file = "secrets/pw" }
        strict = false
        allow_empty = false
        records = "items"
        mode = "snapshot"
        primary_key = ["a", "b"]
        [endpoint.columns]
        b = "x.b"
        a = "x.a"
        """

    @Test("[defaults] overrides the built-in defaults, and endpoint keys override [defaults]")
    func layering() throws {
        let configuration = try SyncConfiguration.parse(Self.layered, sourcePath: "/etc/syncd/syncd.toml")
        #expect(configuration.concurrency == 8)
        let inherits = try #require(configuration.plan(named: "inherits"))
        #expect(inherits.interval == .seconds(3600))
        #expect(inherits.jitter == 0.5)
        #expect(inherits.timeout == .seconds(10))
        #expect(inherits.maxBody == 1024)
        #expect(inherits.mode == .incremental)
        #expect(inherits.headers.map(\.name) == ["Accept", "User-Agent"])
        #expect(inherits.headers.map(\.value) == ["application/json", "syncd"])
        #expect(inherits.auth == .header(name: "X-Api-Key", value: .environment("API_KEY")))
        #expect(inherits.strict)
        #expect(inherits.allowEmpty)
        #expect(inherits.records == .root)
        #expect(
            inherits.columns == [
                ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer, required: true)
            ])
        #expect(inherits.primaryKey == [0])
        #expect(inherits.line == 13)

        let overrides = try #require(configuration.plan(named: "overrides"))
        #expect(overrides.interval == .seconds(5400))
        #expect(overrides.jitter == 0)
        #expect(overrides.timeout == .milliseconds(500))
        #expect(overrides.maxBody == 10_000_000)
        #expect(overrides.mode == .snapshot)
        #expect(overrides.headers.map(\.name) == ["Accept"])
        #expect(
            overrides.auth == .basic(username: "me", password: .file(path: "/etc/syncd/secrets/pw")))
        #expect(overrides.auth?.kindName == "basic")
        #expect(!overrides.strict)
        #expect(!overrides.allowEmpty)
        // Columns keep file order; the key's order is primary_key's.
        #expect(overrides.columns.map(\.name) == ["b", "a"])
        #expect(overrides.columns.map(\.required) == [true, true])
        #expect(overrides.primaryKey == [1, 0])
    }

    @Test(
        "a relative database and paths are resolved against the configuration's directory",
        arguments: [
            ("/etc/syncd/syncd.toml", "cache.db", "/etc/syncd/cache.db"),
            ("/etc/syncd/syncd.toml", "./data/../cache.db", "/etc/syncd/cache.db"),
            ("/etc/syncd/syncd.toml", "../../var/lib/cache.db", "/var/lib/cache.db"),
            ("/etc/syncd/syncd.toml", "/var/lib/syncd/cache.db", "/var/lib/syncd/cache.db"),
            ("/syncd.toml", "cache.db", "/cache.db"),
        ]
    )
    func relativeDatabase(sourcePath: String, database: String, expected: String) throws {
        let text = """
            database = "\(database)"
            [server]
            token_file = "\(database).token"
            """
        let configuration = try SyncConfiguration.parse(text, sourcePath: sourcePath)
        #expect(configuration.databasePath == expected)
        #expect(configuration.server.tokenFile == expected + ".token")
    }

    @Test("a configuration given by a relative path resolves against the working directory")
    func relativeSourcePath() throws {
        let configuration = try SyncConfiguration.parse("database = \"cache.db\"", sourcePath: "conf/syncd.toml")
        let cwd = FileManager.default.currentDirectoryPath
        #expect(configuration.sourcePath == "conf/syncd.toml")
        #expect(configuration.databasePath == (cwd == "/" ? "" : cwd) + "/conf/cache.db")
    }

    @Test(
        "listen addresses",
        arguments: [
            ("127.0.0.1:8787", SyncConfiguration.Server.Listen.tcp(host: "127.0.0.1", port: 8787)),
            ("localhost:80", .tcp(host: "localhost", port: 80)),
            ("0.0.0.0:0", .tcp(host: "0.0.0.0", port: 0)),
            ("[::1]:8787", .tcp(host: "::1", port: 8787)),
            ("[fe80::1%eth0]:9000", .tcp(host: "fe80::1%eth0", port: 9000)),
            ("unix:/run/syncd/read.sock", .unix(path: "/run/syncd/read.sock")),
            ("unix:read.sock", .unix(path: "/etc/syncd/read.sock")),
            ("off", .off),
        ]
    )
    func listen(text: String, expected: SyncConfiguration.Server.Listen) throws {
        let configuration = try SyncConfiguration.parse(
            "[server]\nlisten = \"\(text)\"\nallow_remote = true", sourcePath: "/etc/syncd/syncd.toml")
        #expect(configuration.server.listen == expected)
    }

    @Test(
        "listen refuses anything else",
        arguments: [
            "8787", ":8787", "localhost", "localhost:", "localhost:65536", "localhost:+80", "::1:8787",
            "[::1]", "[]:80", "unix:", "OFF", "host name:80", "tcp://localhost:80",
        ]
    )
    func badListen(text: String) {
        #expect(
            configurationProblems("[server]\nlisten = \"\(text)\"") == [
                #"syncd.toml:2: [server]: listen must be "HOST:PORT", "[IPv6]:PORT", "unix:/PATH" or "off""#
            ]
        )
    }

    @Test("a Unix socket path longer than sun_path is refused")
    func longSocketPath() {
        let path = "/run/" + String(repeating: "s", count: 103)
        #expect(
            configurationProblems("[server]\nlisten = \"unix:\(path)\"") == [
                "syncd.toml:2: [server]: listen: a Unix socket path must be at most 107 bytes long"
            ]
        )
    }

    @Test("endpoints keep file order, and the same URL may be cached twice")
    func endpointOrder() throws {
        var text = ""
        for name in ["zeta", "alpha", "mid"] {
            text += "[[endpoint]]\nname = \"\(name)\"\nurl = \"https://example.com/x\"\n\n"
        }
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        #expect(configuration.plans.map(\.name.name) == ["zeta", "alpha", "mid"])
        #expect(configuration.plans.map(\.line) == [1, 5, 9])
    }
}
