public import SyncDecoding
internal import SyncSQLite
import SyncSupport

/// One endpoint to sync: what to fetch, how often, and how its records become rows. The one model of an endpoint:
/// an `[[endpoint]]` table of syncd.toml reads into the same options, checked by the same rules, in the same words.
///
/// ```swift
/// var users = SyncEndpoint(
///     name: "users", url: "https://api.example.com/users", records: "data", primaryKey: ["id"],
///     columns: [.init("id", type: .integer), .init("name"), .init("updated_at", type: .timestamp)])
/// users.credential = .bearer(.environment("USERS_TOKEN"))
/// users.pagination = .cursor(path: "meta.next_cursor", param: "cursor", hasMorePath: "meta.has_more")
/// users.rateLimit = .perMinute(600)
/// ```
///
/// An endpoint with ``records`` is a collection: its records become rows of the table named ``name``. Without it,
/// the whole body is cached as one document, and the endpoint has no columns.
public struct SyncEndpoint: Sendable, Hashable {
    /// The request method (`method`).
    public enum Method: String, Sendable, Hashable {
        /// Conditional GETs: `If-None-Match` and `If-Modified-Since` from the last answer, and a 304 costs nothing.
        case get = "GET"
        /// A POST of ``SyncEndpoint/body``, a GraphQL query or a search: never conditional, every poll fetches the
        /// whole answer.
        case post = "POST"
    }

    /// Also the table's name: `^[a-z][a-z0-9_]{0,62}$`, not starting with `syncd_` or `sqlite_`.
    public var name: String
    /// An absolute `http://`, `https://` or `file://` URL.
    public var url: String
    /// The JSON path of the record array (`"$"` for the root); `nil` caches the whole body as one document.
    public var records: String?
    /// The key columns, by name; each becomes required.
    public var primaryKey: [String]
    /// The values extracted from each record into columns of the table.
    public var columns: [SyncColumn]
    /// How often a scheduler polls it: 100 ms...30 days. The default is 5 minutes.
    public var interval: Duration
    /// The random spread of the interval, as a fraction of it: 0...1. The default is 0.1.
    public var jitter: Double
    /// Whether the upstream's `Cache-Control` and `Expires` time the poll after a success (`freshness`). The default
    /// is ``Freshness/interval``: every interval.
    public var freshness: Freshness = .interval
    /// With ``Freshness/upstream``, the shortest wait after a success: 100 ms...30 days (`min_interval`). The
    /// default is the interval.
    public var minInterval: Duration?
    /// With ``Freshness/upstream``, the longest wait after a success: 100 ms...30 days, not shorter than the
    /// shortest (`max_interval`). The default is a day, or the shortest wait if that is longer.
    public var maxInterval: Duration?
    /// How long one request may take, body included: 100 ms...1 day. The default is 30 seconds.
    public var timeout: Duration
    /// Extra request headers. Set from Swift, they are sent in the order of their names.
    public var headers: [String: String] {
        get { Dictionary(headerFields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
        set { headerFields = newValue.sorted { $0.key < $1.key }.map { HeaderField(name: $0.key, value: $0.value) } }
    }
    /// ``headers`` in the order they are sent: by name when set from Swift, in the file's order from syncd.toml.
    package var headerFields: [HeaderField] = []
    /// The request method (`method`). The default is GET.
    public var method: Method
    /// The JSON sent as the body of each request, with ``Method/post`` only (`body`, `body_file`): at most 1 MiB,
    /// sent as `Content-Type: application/json` unless ``headers`` say otherwise. A cursor pagination with a body
    /// path replaces one value of it page after page. The default is none.
    public var body: String?
    /// `true`: a response is upserted and never deletes (`mode = "incremental"`). The default is `false`: a
    /// response is the whole set, and rows that vanished are deleted.
    public var upsertOnly: Bool
    /// How requests authenticate (`auth`). The default is none.
    public var credential: Credential?
    /// How the collection is split over several responses (`pagination`). The default is one response.
    public var pagination: Pagination?
    /// How an upsert-only endpoint asks only for what changed (`incremental`). The default is none.
    public var incremental: Incremental?
    /// A cap on the request rate (`rate_limit`). The default is none: only the upstream's `RateLimit` headers pace.
    public var rateLimit: RateLimit?
    /// Whether the pacing is the endpoint's own or shared by its host (`rate_limit_scope`). The default is the
    /// endpoint's own.
    public var rateLimitScope: RateLimitScope
    /// The largest body accepted, in bytes: 1 B...2 GiB (`max_body`). The default is 64 MiB.
    public var maxBody: Int
    /// The largest record accepted, in bytes: 1 KiB...1 GiB (`max_record`). The default is 16 MiB.
    public var maxRecord: Int
    /// Whether values must have exactly their column's JSON type (`strict`). The default is `false`.
    public var strict: Bool
    /// Whether a snapshot may empty a table that has rows (`allow_empty`). The default is `false`.
    public var allowEmpty: Bool
    /// How many stored rows one snapshot may delete (`max_delete`). The default is half of them.
    public var maxDelete: DeletionLimit
    /// How often one run retries connection failures, timeouts, 5xx and 429: 0...100 (`retries`). The default is 3.
    public var retries: Int
    /// The longest wait between attempts; a longer `Retry-After` fails the run: 10 ms...1 day (`retry_max_delay`).
    /// The default is 5 minutes.
    public var retryMaxDelay: Duration
    /// The HTTP proxy requests go through (`proxy`, `proxy_auth`). The default is the environment's
    /// (`HTTPS_PROXY`, `NO_PROXY`, …), as curl reads it.
    public var proxy: HTTPProxy = .environment
    /// What an error status of the first page means instead of a failed run (`on_status`): `[404: .empty]` makes
    /// a 404 an empty collection, `[403: .skip]` keeps the stored data. Statuses 400...599 but 401; a document
    /// endpoint takes ``StatusAction/skip`` only. A status the run retries (429, 5xx) is retried first. The default
    /// is none: every error status fails the run.
    public var onStatus: [Int: StatusAction] = [:]
    /// The trust roots and client certificate of HTTPS requests (`ca_file`, `ca_only`, `client_certificate_file`,
    /// `client_key_file`). The default is the system's roots, and no client certificate.
    public var tls = TLSSettings()
    /// The collection endpoint whose rows this one fans out from (`parent`): one request, and page walk, per row of
    /// that endpoint's table, `{parent.COLUMN}` in ``url`` taking the row's column. The default is none.
    public var parent: String?
    /// Columns each child row carries from its parent's row (`parent_columns`): a column of this table, by name, to
    /// the parent's column it copies (a configured or key column), typed as that column. The default is none.
    public var parentColumns: [String: String] = [:]
    /// Which parents each run walks (`children`). The default is ``ChildSelection/all``.
    public var children: ChildSelection = .all
    /// The most parents one run walks: 1...1,000,000 (`max_parents`); the others wait for later runs, the
    /// least recently walked first. The default is 10,000.
    public var maxParents: Int = 10_000
    /// Parents walked at once: 1...64 (`parent_concurrency`). The default is 4.
    public var parentConcurrency: Int = 4
    /// The upstream's webhook, which syncs the endpoint at once through the read API (`webhook`). The default is
    /// none: the endpoint is synced on its schedule only.
    public var webhook: Webhook?

    /// An endpoint; only the name and the URL are required (no `records`: a document endpoint). The options
    /// not taken here (``credential``, ``pagination``, ``incremental``, ``rateLimit`` and the bounds) are
    /// properties, set after.
    public init(
        name: String, url: String, records: String? = nil, primaryKey: [String] = [], columns: [SyncColumn] = [],
        interval: Duration = .seconds(300), jitter: Double = 0.1, timeout: Duration = .seconds(30),
        headers: [String: String] = [:], upsertOnly: Bool = false
    ) {
        self.name = name
        self.url = url
        self.records = records
        self.primaryKey = primaryKey
        self.columns = columns
        self.interval = interval
        self.jitter = jitter
        self.timeout = timeout
        self.method = .get
        self.upsertOnly = upsertOnly
        self.rateLimitScope = .endpoint
        self.maxBody = EndpointConfiguration.defaultMaxBody
        self.maxRecord = EndpointConfiguration.defaultMaxRecord
        self.strict = false
        self.allowEmpty = false
        self.maxDelete = .default
        self.retries = EndpointConfiguration.defaultRetries
        self.retryMaxDelay = EndpointConfiguration.defaultRetryMaxDelay
        self.headers = headers
    }

    /// Whether the endpoint caches one document rather than records: it has no ``records``.
    public var isDocument: Bool { records == nil }

    /// ``url`` as syncd stores, logs, prints and serves it, its secrets replaced by `REDACTED`: the user information,
    /// the query credential's parameter, and every parameter whose name holds `key`, `token`, `secret`, `password` or
    /// `signature` (`https://u:p@example.com/x?api_key=abc&page=2` is `https://REDACTED@example.com/x?api_key=REDACTED&page=2`).
    public var redactedURL: String {
        URLRedaction.redact(url, queryCredential: credential?.queryName)
    }

    /// One of ``headers``: a name and its value.
    package struct HeaderField: Sendable, Hashable {
        package var name: String
        package var value: String
    }

    /// The options out of their bounds, each keyed by its name in syncd.toml: the one place the bounds of
    /// ``ConfigurationBounds`` are checked, for syncd.toml and Swift alike.
    package var boundProblems: [OptionProblem] {
        let problems: [(key: String, problem: String?)] =
            [
                ("interval", EndpointRules.duration("interval", interval, in: ConfigurationBounds.interval)),
                ("timeout", EndpointRules.duration("timeout", timeout, in: ConfigurationBounds.timeout)),
                (
                    "retry_max_delay",
                    EndpointRules.duration("retry_max_delay", retryMaxDelay, in: ConfigurationBounds.retryMaxDelay)
                ),
                ("max_body", EndpointRules.size("max_body", maxBody, in: ConfigurationBounds.maxBody)),
                ("max_record", EndpointRules.size("max_record", maxRecord, in: ConfigurationBounds.maxRecord)),
                ("jitter", EndpointRules.jitter(jitter)),
                (
                    "webhook",
                    webhook?.parentKey != nil && parent == nil
                        ? #"webhook: parent_key is for an endpoint with a "parent""# : nil
                ),
            ] + freshnessProblems + [
                ("retries", EndpointRules.wholeNumber("retries", retries, in: ConfigurationBounds.retries)),
                (
                    "max_parents",
                    EndpointRules.wholeNumber("max_parents", maxParents, in: ConfigurationBounds.maxParents)
                ),
                (
                    "parent_concurrency",
                    EndpointRules.wholeNumber(
                        "parent_concurrency", parentConcurrency, in: ConfigurationBounds.parentConcurrency)
                ),
            ]
        return problems.compactMap { key, problem in problem.map { OptionProblem(key: key, $0) } }
    }

    /// Checks the endpoint by the rules syncd.toml is checked by, and builds what a sync runs by; nil after adding
    /// to `problems` one sentence per problem. The one place an endpoint is compiled, for syncd.toml and Swift.
    ///
    /// - Parameter checksDocumentKeys: false when the caller reported the keys a document endpoint does not take
    ///   itself: the TOML reader does, at their lines, and there a `mode` from `[defaults]` is the collections'.
    package func compile(into problems: inout [String], checksDocumentKeys: Bool = true) -> EndpointConfiguration? {
        if let problem = NameRules.endpointProblem(name) { problems.append(problem) }
        if !URLRules.isValid(ChildRequest.sample(url)) { problems.append(URLRules.expected) }
        problems += fanOutProblems
        problems += boundProblems.map(\.sentence)
        if let problem = maxDelete.problem { problems.append(problem) }
        if let problem = rateLimit?.problem { problems.append(problem) }
        problems += StatusPolicy.problems(onStatus, isDocument: records == nil)
        for header in headerFields {
            if let problem = EndpointRules.header(name: header.name, value: header.value) { problems.append(problem) }
        }
        var optionProblems: [OptionProblem] =
            (credential?.problems ?? []) + proxy.problems + tls.problems + (webhook?.problems ?? [])
        let paging = pagination?.compile(problems: &optionProblems)
        var recordsPath: JSONPath?
        if let records {
            do {
                recordsPath = try JSONPath(parsing: records)
            } catch {
                problems.append("records: \(error)")
            }
        } else if checksDocumentKeys {
            for (key, isSet) in [
                ("columns", !columns.isEmpty), ("primary_key", !primaryKey.isEmpty), ("pagination", pagination != nil),
                ("incremental", incremental != nil), ("mode", upsertOnly),
            ] where isSet {
                problems.append("a document endpoint (no \"records\") takes no \"\(key)\"")
            }
        }
        var specs: [ColumnSpec] = []
        for column in columns {
            if let problem = NameRules.identifierProblem(column.name, kind: "column name") {
                problems.append(problem)
                continue
            }
            guard !specs.contains(where: { $0.name == column.name }) else {
                problems.append("column \"\(column.name)\" is defined twice")
                continue
            }
            do {
                let path = try JSONPath(parsing: column.path ?? column.name)
                specs.append(ColumnSpec(name: column.name, path: path, type: column.type, required: column.required))
            } catch {
                problems.append("column \"\(column.name)\": path: \(error)")
            }
        }
        if parent != nil { specs += parentColumnSpecs(after: specs) }
        // A column with problems of its own was reported; its name is not reported again here.
        let broken = Set(columns.map(\.name)).subtracting(specs.map(\.name))
        let (key, keyProblems) = EndpointRules.primaryKey(primaryKey, columns: specs, unchecked: broken)
        problems += keyProblems
        for index in key { specs[index].required = true }
        if records != nil, primaryKey.isEmpty {
            problems.append("missing \"primary_key\": an endpoint with \"records\" needs one")
        }
        if let paging, let recordsPath { optionProblems += paging.problems(records: recordsPath) }
        let requestBody = RequestBody.compile(method: method, body: body, pagination: paging, problems: &optionProblems)
        let mode: SyncMode = upsertOnly ? .incremental : .snapshot
        var cursor: IncrementalConfiguration?
        if let incremental, recordsPath != nil {
            cursor = incremental.compile(columns: specs, mode: mode, problems: &optionProblems)
        }
        problems += optionProblems.map(\.sentence)
        guard problems.isEmpty, let identifier = try? SQLIdentifier(validating: name) else { return nil }
        return EndpointConfiguration(
            declared: self, name: identifier, records: recordsPath, primaryKey: key, columns: specs,
            body: requestBody, pagination: paging, incremental: cursor)
    }
}

/// A column of a record table: a value extracted from each record by JSON path.
public struct SyncColumn: Sendable, Hashable {
    /// The column's name: `^[a-z][a-z0-9_]{0,62}$`.
    public var name: String
    /// The JSON path in the record; `nil` is the column's name.
    public var path: String?
    /// How the value is stored. The default is text.
    public var type: ColumnType
    /// A record without this value is rejected (and reported) rather than stored with NULL.
    public var required: Bool

    /// A column named `name`, read from `path` (the name by default).
    public init(_ name: String, path: String? = nil, type: ColumnType = .text, required: Bool = false) {
        self.name = name
        self.path = path
        self.type = type
        self.required = required
    }
}
