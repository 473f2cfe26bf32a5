import SyncSupport

/// The keys of `[[endpoint]]` that say what is cached, how often, and what a run may change.
extension ConfigurationKeys {
    static let endpoint: [ConfigurationKey] = [
        .key(
            "name", "string", default: .text("required"), since: "2026-11-22", example: #""users""#,
            "The endpoint's name, and its table's: `^[a-z][a-z0-9_]{0,62}$`. Each endpoint of the file has its own."),
        .key(
            "url", "string", default: .text("required"), since: "2026-11-22",
            example: #""https://example.com/api/users""#,
            "The URL fetched: `http`, `https` or `file://`. A child endpoint's may hold `{parent.COLUMN}`."),
        .key(
            "records", "string", default: .text("none: a document endpoint"), since: "2026-11-22",
            example: #""data.items""#,
            "The JSON path to the array of records (`\"$\"` is the root). Without it the endpoint is a document: "
                + "the whole body is one cached resource."),
        .key(
            "primary_key", "string or array of strings", default: .text("required with `records`"),
            since: "2026-11-22", example: #"["id"]"#,
            "One or more column names that identify a record. A child endpoint's may name a parent column."),
        .key(
            "columns", "table", default: .text("none"), since: "2026-11-22",
            example: #"{ id = { path = "id", type = "integer" }, name = "name" }"#,
            "The table's columns, in order: `column = \"json.path\"`, or a table of "
                + "[column options](#column-options). It is often written as `[endpoint.columns]` after the "
                + "endpoint's keys."),
        .key(
            "mode", "string", default: .value(#""snapshot""#), inDefaults: true, since: "2026-11-22",
            example: #""incremental""#,
            "`\"snapshot\"`: rows absent from a response are deleted. `\"incremental\"`: records are upserted, "
                + "never deleted for being absent."),
        .key(
            "interval", "duration", default: .value(#""5m""#),
            range: ConfigurationBounds.describe(ConfigurationBounds.interval), inDefaults: true,
            since: "2026-11-22", example: #""1h30m""#,
            "How often `syncd run` syncs the endpoint. Durations are written `500ms`, `30s`, `5m`, `1h`, `1d` or "
                + "`1h30m`."),
        .key(
            "jitter", "number", default: .value("0.1"), range: describe(ConfigurationBounds.jitter),
            inDefaults: true, since: "2026-11-22", example: "0.2",
            "A random share of the interval added or taken off each wait: `0.1` is ±10%."),
        .key(
            "freshness", "string", default: .value(#""interval""#), inDefaults: true, since: "2026-12-07",
            example: #""upstream""#,
            "`\"upstream\"`: the poll after a success waits for the answer's `Cache-Control: max-age` or "
                + "`Expires` to run out, within `min_interval` and `max_interval`."),
        .key(
            "min_interval", "duration", default: .text("the interval"),
            range: ConfigurationBounds.describe(ConfigurationBounds.interval), inDefaults: true,
            since: "2026-12-07", example: #""1m""#, with: [#"freshness = "upstream""#],
            "With `freshness = \"upstream\"`, the shortest wait after a success."),
        .key(
            "max_interval", "duration", default: .text("a day, or `min_interval` when that is longer"),
            range: ConfigurationBounds.describe(ConfigurationBounds.interval) + ", not shorter than `min_interval`",
            inDefaults: true, since: "2026-12-07", example: #""6h""#, with: [#"freshness = "upstream""#],
            "With `freshness = \"upstream\"`, the longest wait after a success."),
        .key(
            "timeout", "duration", default: .value(#""30s""#),
            range: ConfigurationBounds.describe(ConfigurationBounds.timeout), inDefaults: true,
            since: "2026-11-22", example: #""2m""#,
            "The longest one request may take, its body included."),
        .key(
            "max_body", "size", default: .value(#""64MiB""#),
            range: ConfigurationBounds.describe(bytes: ConfigurationBounds.maxBody), inDefaults: true,
            since: "2026-11-22", example: #""256MiB""#,
            "The largest response body. Sizes are written with `B`, `kB`, `MB`, `GB`, `KiB`, `MiB` or `GiB`, or "
                + "as an integer of bytes. A document is held in memory whole."),
        .key(
            "max_record", "size", default: .value(#""16MiB""#),
            range: ConfigurationBounds.describe(bytes: ConfigurationBounds.maxRecord), inDefaults: true,
            since: "2026-11-24", example: #""1MiB""#,
            "The largest record. A longer one fails the run and keeps the stored data, instead of being gathered "
                + "in memory."),
        .key(
            "strict", "boolean", default: .value("false"), inDefaults: true, since: "2026-11-22", example: "true",
            "`true`: each column takes its type's first form only (`\"12\"` is not an integer)."),
        .key(
            "allow_empty", "boolean", default: .value("false"), inDefaults: true, since: "2026-11-22",
            example: "true",
            "A snapshot refuses an empty answer while rows are stored, unless this is `true`."),
        .key(
            "max_delete", "string or integer", default: .value(#""50%""#),
            range: #"`"0%"` to `"100%"` (whole percents, rounded up), or 0 or more rows"#, inDefaults: true,
            since: "2026-11-24", example: #""10%""#,
            "A snapshot refuses a run that would delete more of the stored rows than this."),
        .key(
            "retries", "integer", default: .value("3"),
            range: ConfigurationBounds.describe(ConfigurationBounds.retries), inDefaults: true,
            since: "2026-11-22", example: "5",
            "Attempts after the first, within one run: connection failures, timeouts, cut-off bodies, 5xx and 429. "
                + "They wait 1 s, 2 s, 4 s… (±20%)."),
        .key(
            "retry_max_delay", "duration", default: .value(#""5m""#),
            range: ConfigurationBounds.describe(ConfigurationBounds.retryMaxDelay), inDefaults: true,
            since: "2026-11-22", example: #""1m""#,
            "The longest wait between attempts. A `Retry-After` above it ends the run, and the daemon's schedule "
                + "honours it."),
        .key(
            "on_status", "inline table", default: .text("none: every error status fails the run"),
            range: #"keys: statuses from 400 to 599 but 401; values: `"empty"` or `"skip"`"#, inDefaults: true,
            since: "2026-12-06", example: #"{ 404 = "empty", 403 = "skip" }"#,
            "Error statuses of the first page that are answers: `\"empty\"` is a collection with no records, "
                + "`\"skip\"` keeps the stored data as a 304 does. A document endpoint takes `\"skip\"` only."),
        .key(
            "rate_limit", "string", default: .text("none"),
            range: ConfigurationBounds.describe(ConfigurationBounds.rateLimitRequests)
                + " requests per second, minute or hour",
            inDefaults: true, since: "2026-11-22", example: #""10/s""#,
            "A cap on the endpoint's requests, pages and retries alike: `\"N/s\"`, `\"N/m\"` or `\"N/h\"`."),
        .key(
            "rate_limit_scope", "string", default: .value(#""endpoint""#), inDefaults: true, since: "2026-11-22",
            example: #""host""#,
            "`\"host\"`: the endpoints of one scheme, host and port that say so share one pace (`rate_limit` and "
                + "the upstream's RateLimit headers)."),
        .key(
            "parent", "string", since: "2026-12-06", example: #""repos""#,
            "Makes this a child endpoint: one request, and page walk, per row of the named collection endpoint. "
                + "`{parent.COLUMN}` in `url`, `headers` and `body` takes that row's value."),
        .key(
            "parent_columns", "inline table", since: "2026-12-06", example: #"{ repo_id = "id" }"#,
            with: [#"parent = "repos""#],
            "`{ column = \"parent column\" }`: columns of the child's table copied from the parent's row, typed "
                + "as the parent's column."),
        .key(
            "children", "string", default: .value(#""all""#), since: "2026-12-06", example: #""changed""#,
            with: [#"parent = "repos""#],
            "`\"all\"` walks every parent. `\"changed\"` walks only new parents and those whose row changed since "
                + "their children were last walked."),
        .key(
            "max_parents", "integer", default: .value("10000"),
            range: ConfigurationBounds.describe(ConfigurationBounds.maxParents), since: "2026-12-06",
            example: "500", with: [#"parent = "repos""#],
            "The most parents one run walks: those never walked first, then the least recently walked."),
        .key(
            "parent_concurrency", "integer", default: .value("4"),
            range: ConfigurationBounds.describe(ConfigurationBounds.parentConcurrency), since: "2026-12-06",
            example: "8", with: [#"parent = "repos""#],
            "The parents walked at once. They share the endpoint's `rate_limit`, retries and `Retry-After`."),
    ]
}
