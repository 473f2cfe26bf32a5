/// How a complete response changes the cached set.
package enum SyncMode: String, Sendable, Hashable {
    /// A complete response replaces the set: rows that vanished are deleted.
    case snapshot
    /// Rows are upserted, never deleted.
    case incremental
}

/// One `[[endpoint]]`: what to fetch, how often, and how its records become rows.
///
/// An endpoint with `records` is a collection: its records become rows of the table named ``name``. Without
/// `records` it is a document endpoint: the whole body is one cached resource, and it has no columns.
package struct EndpointConfiguration: Sendable {
    /// The poll interval when neither the endpoint nor `[defaults]` says.
    package static let defaultInterval = Duration.seconds(300)
    /// The jitter when neither the endpoint nor `[defaults]` says.
    package static let defaultJitter = 0.1
    /// The request timeout when neither the endpoint nor `[defaults]` says.
    package static let defaultTimeout = Duration.seconds(30)
    /// The largest body accepted when neither the endpoint nor `[defaults]` says: 64 MiB.
    package static let defaultMaxBody = 64 << 20
    /// The largest record accepted when the file does not say: 16 MiB.
    package static let defaultMaxRecord = 16 << 20
    /// Retries within one run of connection failures, timeouts, 5xx and 429.
    package static let defaultRetries = 3
    /// The longest wait between two attempts of one run; a Retry-After above it fails the run instead.
    package static let defaultRetryMaxDelay = Duration.seconds(300)

    /// The endpoint's name, also its table's name. Never starts with `syncd_` or `sqlite_`.
    package var name: SQLIdentifier
    /// An absolute `http://`, `https://` or `file://` URL.
    package var url: String {
        didSet { redactedURL = Self.redacted(url, auth) }
    }
    /// The line of the endpoint's `[[endpoint]]` header; 0 when built in code.
    package var line: Int
    /// The time between polls. The default is 5 minutes; always positive.
    package var interval: Duration
    /// The random spread of the interval, as a fraction of it. The default is 0.1 (±10%); 0...1.
    package var jitter: Double
    /// The time one request may take. The default is 30 seconds; always positive.
    package var timeout: Duration
    /// The largest body accepted, in bytes. The default is 64 MiB; always positive.
    package var maxBody: Int
    /// The largest record accepted, in bytes: a record is held whole while it is decoded, so a larger one fails the
    /// run instead. The default is 16 MiB; 1 KiB...1 GiB.
    package var maxRecord: Int
    /// The path to the array of records; nil for a document endpoint. The default is nil.
    package var records: JSONPath?
    /// The primary key: indices into ``columns``. The default is none (a document endpoint).
    package var primaryKey: [Int]
    /// How a complete response changes the set. The default is ``SyncMode/snapshot``.
    package var mode: SyncMode
    /// Extra request headers, already validated. The default is none.
    package var headers: [(name: String, value: String)]
    /// The request method. The default is GET, the only one sent conditionally.
    package var method: SyncEndpoint.Method
    /// The JSON sent with each request, already checked. The default is nil: none.
    package var body: RequestBody?
    /// How requests authenticate. The default is nil: no authentication.
    package var auth: Credential? {
        didSet { redactedURL = Self.redacted(url, auth) }
    }
    /// The URL as it may be stored, logged, printed and served (``URLRedaction``). Kept rather than worked out
    /// again: every run stores it, 304s too.
    package private(set) var redactedURL: String
    /// Whether values must have exactly their column's JSON type (`"12"` is then not an integer). The default is false.
    package var strict: Bool
    /// Whether a snapshot may empty a table that has rows. The default is false.
    package var allowEmpty: Bool
    /// How many stored rows a non-empty snapshot may delete; more fails the run. The default is `"50%"`.
    package var maxDelete: SyncEndpoint.DeletionLimit
    /// The columns, in file order; key columns are always required. The default is none.
    package var columns: [ColumnSpec]
    /// How often one run retries connection failures, timeouts, 5xx and 429. The default is 3.
    package var retries: Int
    /// The longest wait between attempts; a longer Retry-After fails the run. The default is 5 minutes.
    package var retryMaxDelay: Duration
    /// How the collection is split over several responses. The default is nil: one response holds it all.
    package var pagination: PaginationConfiguration?
    /// How an incremental endpoint asks only for what changed. The default is nil: every request is the same.
    package var incremental: IncrementalConfiguration?
    /// A cap on the endpoint's request rate. The default is nil: only the upstream's RateLimit headers slow it.
    package var rateLimit: SyncEndpoint.RateLimit?
    /// Whether the pacing (``rateLimit`` and the upstream's RateLimit headers) is the endpoint's own or shared by
    /// every endpoint on its host with this scope. The default is `.endpoint`.
    package var rateLimitScope: SyncEndpoint.RateLimitScope

    /// Whether the endpoint caches one document rather than records.
    package var isDocument: Bool { records == nil }

    package init(
        name: SQLIdentifier,
        url: String,
        line: Int = 0,
        interval: Duration = EndpointConfiguration.defaultInterval,
        jitter: Double = EndpointConfiguration.defaultJitter,
        timeout: Duration = EndpointConfiguration.defaultTimeout,
        maxBody: Int = EndpointConfiguration.defaultMaxBody,
        maxRecord: Int = EndpointConfiguration.defaultMaxRecord,
        records: JSONPath? = nil,
        primaryKey: [Int] = [],
        mode: SyncMode = .snapshot,
        headers: [(name: String, value: String)] = [],
        method: SyncEndpoint.Method = .get,
        body: RequestBody? = nil,
        auth: Credential? = nil,
        strict: Bool = false,
        allowEmpty: Bool = false,
        maxDelete: SyncEndpoint.DeletionLimit = .default,
        columns: [ColumnSpec] = [],
        retries: Int = EndpointConfiguration.defaultRetries,
        retryMaxDelay: Duration = EndpointConfiguration.defaultRetryMaxDelay,
        pagination: PaginationConfiguration? = nil,
        incremental: IncrementalConfiguration? = nil,
        rateLimit: SyncEndpoint.RateLimit? = nil,
        rateLimitScope: SyncEndpoint.RateLimitScope = .endpoint
    ) {
        self.name = name
        self.url = url
        self.line = line
        self.interval = interval
        self.jitter = jitter
        self.timeout = timeout
        self.maxBody = maxBody
        self.maxRecord = maxRecord
        self.records = records
        self.primaryKey = primaryKey
        self.mode = mode
        self.headers = headers
        self.method = method
        self.body = body
        self.auth = auth
        self.strict = strict
        self.allowEmpty = allowEmpty
        self.maxDelete = maxDelete
        self.columns = columns
        self.retries = retries
        self.retryMaxDelay = retryMaxDelay
        self.pagination = pagination
        self.incremental = incremental
        self.rateLimit = rateLimit
        self.rateLimitScope = rateLimitScope
        self.redactedURL = Self.redacted(url, auth)
    }

    /// `url` as ``URLRedaction`` shows it, the query credential `auth` names included.
    private static func redacted(_ url: String, _ auth: Credential?) -> String {
        URLRedaction.redact(url, queryCredential: auth?.queryName)
    }
}
