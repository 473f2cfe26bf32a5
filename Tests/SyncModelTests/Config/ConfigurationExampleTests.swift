import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("The configuration example of DESIGN.md")
struct ConfigurationExampleTests {
    /// DESIGN.md's example, comments included, without `incremental` (its example names a column the example does
    /// not configure, on a snapshot endpoint: both refused) and the retry keys.
    static let example = """
        database = "/var/lib/syncd/cache.db"   # default: $STATE_DIRECTORY/cache.db, else ./syncd.db

        [server]                                # the read API
        listen = "127.0.0.1:8787"              # or "unix:/run/syncd/read.sock"; "off" disables
        token_file = "/etc/syncd/read.token"   # optional: require "Authorization: Bearer <token>"

        [defaults]                              # any endpoint key may be set here
        interval = "5m"                         # durations: 500ms, 30s, 5m, 1h
        jitter = 0.1                            # ±10% of the interval
        timeout = "30s"
        max_body = "64MiB"
        concurrency = 4                         # endpoints fetched at once

        [[endpoint]]
        name = "users"                          # also the table name: ^[a-z][a-z0-9_]{0,62}$
        url = "https://example.com/api/users"   # http, https or file://
        interval = "10m"
        records = "data.items"                  # JSON path to the array of records; "$" = the root
        primary_key = ["id"]                    # one or more column names
        mode = "snapshot"                       # snapshot: a complete response replaces the set
                                                # (rows that vanished are deleted);
                                                # incremental: upsert only, never delete
        headers = { Accept = "application/json" }
        auth = { type = "bearer", token_env = "USERS_TOKEN" }   # the secret from token_env,
                                                # token_file or credential (a name in systemd's
                                                # $CREDENTIALS_DIRECTORY); the other kinds:
                                                # { type = "basic", username = "u", password_env = "P" }
                                                # { type = "header", name = "X-Api-Key", value_env = "K" }
                                                # { type = "query", name = "api_key", value_env = "K" }
                                                # (value_file / password_file / credential likewise)
        strict = false                          # true: "12" is not an integer
        allow_empty = false                     # snapshot: a 200 with no records while the table has
                                                # rows is refused (an API glitch must not wipe the cache)
        pagination = { type = "link" }          # RFC 8288 Link rel="next"
        rate_limit = "10/s"                     # optional cap on requests to this endpoint

        [endpoint.columns]                      # column = JSON path, or a table:
        name = "name"                           # text by default
        email = { path = "email", required = true }
        city = "address.city"
        lat = { path = "address.geo.lat", type = "real" }  # integer|real|text|boolean|json|timestamp
        id = { path = "id", type = "integer" }

        [[endpoint]]
        name = "flags"                          # no `records`: a document endpoint; the whole body
        url = "https://example.com/flags.json"  # is one cached resource

        """

    @Test("parses to the exact model")
    func parsesToTheExactModel() throws {
        let configuration = try SyncConfiguration.parse(Self.example, sourcePath: "/etc/syncd/syncd.toml")
        let expected = SyncConfiguration(
            sourcePath: "/etc/syncd/syncd.toml",
            database: "/var/lib/syncd/cache.db",
            server: SyncConfiguration.Server(
                listen: .tcp(host: "127.0.0.1", port: 8787),
                tokenFile: "/etc/syncd/read.token"
            ),
            concurrency: 4,
            endpoints: [
                EndpointConfiguration(
                    name: try SQLIdentifier(validating: "users"),
                    url: "https://example.com/api/users",
                    line: 14,
                    interval: .seconds(600),
                    jitter: 0.1,
                    timeout: .seconds(30),
                    maxBody: 64 * 1024 * 1024,
                    records: try JSONPath(parsing: "data.items"),
                    primaryKey: [4],
                    mode: .snapshot,
                    headers: [(name: "Accept", value: "application/json")],
                    auth: .bearer(.environment("USERS_TOKEN")),
                    strict: false,
                    allowEmpty: false,
                    columns: [
                        ColumnSpec(name: "name", path: try JSONPath(parsing: "name")),
                        ColumnSpec(name: "email", path: try JSONPath(parsing: "email"), required: true),
                        ColumnSpec(name: "city", path: try JSONPath(parsing: "address.city")),
                        ColumnSpec(name: "lat", path: try JSONPath(parsing: "address.geo.lat"), type: .real),
                        ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer, required: true),
                    ],
                    pagination: PaginationConfiguration(kind: .link),
                    rateLimit: .perSecond(10)
                ),
                EndpointConfiguration(
                    name: try SQLIdentifier(validating: "flags"),
                    url: "https://example.com/flags.json",
                    line: 44
                ),
            ]
        )
        #expect(configuration == expected)
        let users = try #require(configuration.plan(named: "users"))
        #expect(!users.isDocument)
        #expect(users.auth?.kindName == "bearer")
        #expect(try #require(configuration.plan(named: "flags")).isDocument)
        #expect(configuration.plan(named: "nope") == nil)
    }

    @Test("an empty file is valid: built-in defaults and nothing to sync")
    func emptyFileIsValid() throws {
        let configuration = try SyncConfiguration.parse("# nothing yet\n", sourcePath: "syncd.toml")
        #expect(configuration == SyncConfiguration(sourcePath: "syncd.toml"))
        #expect(configuration.server.listen == .tcp(host: "127.0.0.1", port: 8787))
        #expect(configuration.concurrency == 4)
        #expect(configuration.plans.isEmpty)
    }
}
