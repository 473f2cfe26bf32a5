package import SyncDecoding
package import SyncSQLite
import SyncSupport

/// How a complete response changes the cached set.
package enum SyncMode: String, Sendable, Hashable {
    /// A complete response replaces the set: rows that vanished are deleted.
    case snapshot
    /// Rows are upserted, never deleted.
    case incremental
}

/// One endpoint compiled: the plan a sync runs by, built by ``SyncEndpoint/compile(into:checksDocumentKeys:)`` for
/// syncd.toml and Swift alike.
///
/// It holds the ``SyncEndpoint`` it was compiled from (``declared``) and only what compiling derives: the name as an
/// identifier, the records path, the key and columns, the request body, the pagination and the cursor. Every other
/// option (`interval`, `timeout`, `retries`, `rateLimit`, …) is read through ``declared``, by dynamic member lookup:
/// `endpoint.interval` is `endpoint.declared.interval`, so a new option is one property of ``SyncEndpoint``.
///
/// An endpoint with `records` is a collection: its records become rows of the table named ``name``. Without
/// `records` it is a document endpoint: the whole body is one cached resource, and it has no columns.
@dynamicMemberLookup
package struct EndpointConfiguration: Sendable, Equatable {
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

    /// The endpoint as declared, whole: what ``SyncConfiguration/endpoints`` gives back. Its name, records, key,
    /// columns, body, pagination and incremental are also held compiled beside it, for the engine.
    package private(set) var declared: SyncEndpoint
    /// The endpoint's name, also its table's name. Never starts with `syncd_` or `sqlite_`.
    package var name: SQLIdentifier
    /// The line of the endpoint's `[[endpoint]]` header; 0 when built in code.
    package var line: Int
    /// The path to the array of records; nil for a document endpoint. The default is nil.
    package var records: JSONPath?
    /// The primary key: indices into ``columns``. The default is none (a document endpoint).
    package var primaryKey: [Int]
    /// The columns, in file order; key columns are always required. The default is none.
    package var columns: [ColumnSpec]
    /// The JSON sent with each request, already checked. The default is nil: none.
    package var body: RequestBody?
    /// How the collection is split over several responses. The default is nil: one response holds it all.
    package var pagination: PaginationConfiguration?
    /// How an incremental endpoint asks only for what changed. The default is nil: every request is the same.
    package var incremental: IncrementalConfiguration?
    /// How a child endpoint reads its parent's rows, once ``FanOutLink`` linked it to its parent; nil for an
    /// endpoint without a parent.
    package var fanOut: FanOutPlan?
    /// The URL as it may be stored, logged, printed and served (``URLRedaction``). Kept rather than worked out
    /// again: every run stores it, 304s too.
    package private(set) var redactedURL: String

    /// The plan of `declared`, from what compiling it derived.
    init(
        declared: SyncEndpoint, name: SQLIdentifier, line: Int = 0, records: JSONPath?, primaryKey: [Int],
        columns: [ColumnSpec], body: RequestBody?, pagination: PaginationConfiguration?,
        incremental: IncrementalConfiguration?
    ) {
        self.declared = declared
        self.name = name
        self.line = line
        self.records = records
        self.primaryKey = primaryKey
        self.columns = columns
        self.body = body
        self.pagination = pagination
        self.incremental = incremental
        self.redactedURL = declared.redactedURL
    }

    /// A plan built in code, each option given as the engine holds it (the stores' own view of an endpoint, tests).
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
        var declared = SyncEndpoint(
            name: name.name, url: url, interval: interval, jitter: jitter, timeout: timeout,
            upsertOnly: mode == .incremental)
        declared.headerFields = headers.map { SyncEndpoint.HeaderField(name: $0.name, value: $0.value) }
        (declared.method, declared.credential) = (method, auth)
        (declared.strict, declared.allowEmpty, declared.maxDelete) = (strict, allowEmpty, maxDelete)
        (declared.maxBody, declared.maxRecord) = (maxBody, maxRecord)
        (declared.retries, declared.retryMaxDelay) = (retries, retryMaxDelay)
        (declared.rateLimit, declared.rateLimitScope) = (rateLimit, rateLimitScope)
        self.init(
            declared: declared, name: name, line: line, records: records, primaryKey: primaryKey, columns: columns,
            body: body, pagination: pagination, incremental: incremental)
    }

    /// Whether two plans sync the same way (a reload's diff): the compiled values, and every other option as
    /// declared. A plan built in code from compiled values equals the one compiled from the same declaration.
    package static func == (lhs: EndpointConfiguration, rhs: EndpointConfiguration) -> Bool {
        (lhs.name, lhs.line, lhs.records, lhs.primaryKey, lhs.columns) == (
            rhs.name, rhs.line, rhs.records, rhs.primaryKey, rhs.columns
        )
            && (lhs.body, lhs.pagination, lhs.incremental) == (rhs.body, rhs.pagination, rhs.incremental)
            && lhs.fanOut == rhs.fanOut
            && lhs.options == rhs.options
    }

    /// ``declared`` less what is held compiled beside it: the options ``==`` compares once.
    private var options: SyncEndpoint {
        var options = declared
        options.name = ""
        (options.records, options.primaryKey, options.columns, options.body) = (nil, [], [], nil)
        (options.pagination, options.incremental) = (nil, nil)
        return options
    }

    /// An option as declared: `endpoint.interval`, `endpoint.retries`, `endpoint.rateLimit`…
    package subscript<Value>(dynamicMember option: WritableKeyPath<SyncEndpoint, Value>) -> Value {
        get { declared[keyPath: option] }
        set {
            declared[keyPath: option] = newValue
            redactedURL = declared.redactedURL
        }
    }

    /// An absolute `http://`, `https://` or `file://` URL.
    package var url: String {
        get { declared.url }
        set { self[dynamicMember: \.url] = newValue }
    }

    /// How requests authenticate. The default is nil: no authentication.
    package var auth: Credential? {
        get { declared.credential }
        set { self[dynamicMember: \.credential] = newValue }
    }

    /// How a complete response changes the set. The default is ``SyncMode/snapshot``.
    package var mode: SyncMode {
        get { declared.upsertOnly ? .incremental : .snapshot }
        set { declared.upsertOnly = newValue == .incremental }
    }

    /// Extra request headers, already validated, in the order they are sent. The default is none.
    package var headers: [(name: String, value: String)] {
        get { declared.headerFields.map { (name: $0.name, value: $0.value) } }
        set { declared.headerFields = newValue.map { SyncEndpoint.HeaderField(name: $0.name, value: $0.value) } }
    }

    /// Whether the endpoint caches one document rather than records.
    package var isDocument: Bool { records == nil }
}
