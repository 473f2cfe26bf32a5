import SyncSupport

/// The keys of the top level, `[server]`, `[cluster]` and `[defaults]`.
extension ConfigurationKeys {
    static let root: [ConfigurationKey] = [
        .key(
            "database", "string", default: .text("`$STATE_DIRECTORY/cache.db`, else `./syncd.db`"),
            since: "2026-11-22", example: #""/var/lib/syncd/cache.db""#,
            "The SQLite file, or a `postgresql://user@host:5432/db` URL. A relative path is relative to the "
                + "configuration file's folder. It is always a plain path, never an SQLite URI (`file:…`) or "
                + "`:memory:`."),
        .key(
            "password_file", "string", since: "2026-11-28", example: #""/etc/syncd/pg.pass""#,
            with: [#"database = "postgresql://syncd@db.example/cache""#],
            "PostgreSQL only: the file whose first line is the password, when the URL has none. It is read before "
                + "`$CREDENTIALS_DIRECTORY` and `PGPASSWORD`."),
    ]

    static let server: [ConfigurationKey] = [
        .key(
            "listen", "string", default: .value(#""127.0.0.1:8787""#), since: "2026-11-22",
            example: #""unix:/run/syncd/read.sock""#,
            "Where `syncd run` serves the read API: `\"HOST:PORT\"`, `\"[IPv6]:PORT\"`, `\"unix:/PATH\"` or "
                + "`\"off\"`. A change needs a restart. An address other machines can reach needs a token or "
                + "`allow_remote = true`."),
        .key(
            "token_file", "string", since: "2026-11-22", example: #""/etc/syncd/read.token""#,
            "The file holding the read API's token: readers send `Authorization: Bearer <token>`. Set this or "
                + "`token_credential`, not both."),
        .key(
            "token_credential", "string", since: "2026-11-22", example: #""read-token""#,
            "The token as a file name in systemd's `$CREDENTIALS_DIRECTORY` (`LoadCredential=`). Set this or "
                + "`token_file`, not both."),
        .key(
            "allow_remote", "boolean", default: .value("false"), since: "2026-11-24", example: "true",
            "`true` lets a listen address other machines can reach (`0.0.0.0:8787`, `[::]:8787`, a LAN address) go "
                + "without a token. Without a token, a request's `Host` must name the listen address (else 421)."),
        .key(
            "max_rows", "integer", default: .value("1000"),
            range: ConfigurationBounds.describe(ConfigurationBounds.maxRows), since: "2026-11-24", example: "500",
            "The most records in one list or change-feed answer of the read API."),
        .key(
            "max_connections", "integer", default: .value("512"),
            range: ConfigurationBounds.describe(ConfigurationBounds.maxConnections), since: "2026-12-06",
            example: "1024",
            "The read API's connections open at once. A change needs a restart."),
        .key(
            "max_streams", "integer", default: .value("256"),
            range: ConfigurationBounds.describe(ConfigurationBounds.maxStreams), since: "2026-12-07", example: "0",
            "The change-feed event streams and long polls open at once; `0` turns them off. A change needs a "
                + "restart."),
        .key(
            "allow_revalidate", "boolean", default: .value("false"), since: "2026-12-07", example: "true",
            "`true`: a request's `Cache-Control: max-age=N` first syncs an endpoint whose copy is older. A reload "
                + "applies it."),
        .key(
            "read_database", "string", since: "2026-11-28",
            example: #""postgresql://syncd@replica.example/cache""#,
            "A `postgresql://` URL of a streaming replica of the database: the read API reads it instead of the "
                + "database it writes."),
    ]

    static let cluster: [ConfigurationKey] = [
        .key(
            "node", "string", default: .text("the host name"), since: "2026-11-28", example: #""syncd-1""#,
            "This node's name in `syncd status` and `/v1/endpoints`: letters, digits, `.`, `-` and `_`, at most "
                + "63 bytes."),
        .key(
            "lease", "duration", default: .value(#""30s""#),
            range: ConfigurationBounds.describe(ConfigurationBounds.lease), since: "2026-11-28",
            example: #""1m""#,
            "How long a node's claim on an endpoint lasts unrenewed. It is how soon the other nodes take over "
                + "from a node that died."),
    ]

    static let defaults: [ConfigurationKey] = [
        .key(
            "concurrency", "integer", default: .value("4"),
            range: ConfigurationBounds.describe(ConfigurationBounds.concurrency), since: "2026-11-22",
            example: "8",
            "The endpoints fetched at once. It is set here only."),
        .key(
            "stop_grace", "duration", default: .value(#""10s""#),
            range: ConfigurationBounds.describe(ConfigurationBounds.stopGrace), since: "2026-12-07",
            example: #""30s""#,
            "On SIGTERM, the syncs in flight may finish for this long, then roll back. Keep it under systemd's "
                + "`TimeoutStopSec`. It is set here only."),
    ]
}
