import SyncPostgres
import Testing

@testable import SyncCore

@Suite("PostgresLocation: the database URL")
struct PostgresLocationTests {
    @Test("a full URL: user, password, host, port, database and sslmode; the redacted form drops the password")
    func full() throws {
        let location = try PostgresLocation(
            parsing: "postgresql://syncd:p%40ss@db.example:6432/cache?sslmode=verify-full&application_name=node-1")
        #expect((location.user, location.password, location.host) == ("syncd", "p@ss", "db.example"))
        #expect((location.port, location.database, location.sslMode) == (6432, "cache", .verifyFull))
        #expect(location.applicationName == "node-1")
        #expect(location.redacted == "postgresql://syncd@db.example:6432/cache")
    }

    @Test("what the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGDATABASE, PGSSLMODE, then libpq's defaults")
    func defaults() throws {
        let bare = try PostgresLocation(parsing: "postgres://", environment: [:], processUser: "operator")
        #expect(
            (bare.host, bare.port, bare.user, bare.database) == ("/var/run/postgresql", 5432, "operator", "operator"))
        #expect(bare.sslMode == .prefer)
        #expect(bare.isUnixSocket)
        let environment = [
            "PGHOST": "pg.internal", "PGPORT": "5433", "PGUSER": "app", "PGDATABASE": "main", "PGSSLMODE": "require",
        ]
        let fromEnvironment = try PostgresLocation(parsing: "postgresql://", environment: environment)
        #expect(
            (fromEnvironment.host, fromEnvironment.port, fromEnvironment.user, fromEnvironment.database)
                == ("pg.internal", 5433, "app", "main"))
        #expect(fromEnvironment.sslMode == .require)
        let socket = try PostgresLocation(parsing: "postgresql:///cache?host=/run/pg&user=syncd")
        #expect((socket.host, socket.database, socket.isUnixSocket) == ("/run/pg", "cache", true))
        #expect(socket.redacted == "postgresql://syncd@:5432/cache?host=/run/pg")
        let ipv6 = try PostgresLocation(parsing: "postgresql://u@[::1]:7000/d")
        #expect((ipv6.host, ipv6.port) == ("::1", 7000))
    }

    @Test(
        "what cannot be read is refused with one sentence, which never shows the password",
        arguments: [
            ("mysql://x/y", "does not start with postgresql://"),
            ("postgresql://a@b:99999/c", "port in the URL that is not a number"),
            ("postgresql://user:hunter2/db", "port in the URL that is not a number"),
            ("postgresql://h1,h2/db", "names several hosts"),
            ("postgresql://a@b/c?sslmode=maybe", "sslmode=maybe"),
            ("postgresql://a@b/c?sslpassword=hunter2", "the parameter sslpassword"),
            ("postgresql://a@b/c?connect_timeout=0", "connect_timeout=0"),
            ("postgresql://a%zz@b/c", "a % in the user name"),
            ("postgresql://a@[::1/c", "without its closing ]"),
            ("postgresql://a@b/" + String(repeating: "d", count: 64), "database name that is empty or longer than 63"),
        ])
    func refusals(url: String, expected: String) {
        #expect {
            _ = try PostgresLocation(parsing: url)
        } throws: { error in
            let sentence = "\(error)"
            return sentence.contains(expected) && !sentence.contains("hunter2")
                && sentence.hasPrefix("the PostgreSQL database URL ")
        }
    }

    @Test("isPostgres tells a URL from an SQLite path")
    func scheme() {
        #expect(PostgresLocation.isPostgres("postgresql://x"))
        #expect(PostgresLocation.isPostgres("postgres://x"))
        #expect(!PostgresLocation.isPostgres("/var/lib/syncd/cache.db"))
        #expect(!PostgresLocation.isPostgres("postgresql.db"))
    }

    @Test("SyncCore's reader keeps a URL as written; SyncPostgres names the line and the key of one it cannot read")
    func problemsAtTheirLines() throws {
        let toml = """
            database = "postgresql://syncd:hunter2@db.example/cache?sslmode=sometimes"

            [server]
            read_database = "postgresql://syncd@replica.example:99999/cache"
            """
        let configuration = try SyncConfiguration(toml: toml, sourcePath: "syncd.toml")
        let problems = configuration.postgresProblems()
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("syncd.toml:1: database: the PostgreSQL database URL ") == true)
        #expect(problems.last?.hasPrefix("syncd.toml:4: [server]: read_database: the PostgreSQL database URL ") == true)
        #expect(!problems.joined().contains("hunter2"))
        let good = try SyncConfiguration(toml: #"database = "postgresql://syncd@db.example/cache""#)
        #expect(good.postgresProblems().isEmpty)
    }
}
