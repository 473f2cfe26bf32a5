/// The endpoints to sync, the same model syncd.toml fills: read from TOML (every key syncd knows, with
/// file:line in every error) or built in Swift from ``SyncEndpoint`` values.
///
/// ```swift
/// let configuration = try SyncConfiguration(endpoints: [
///     SyncEndpoint(
///         name: "users", url: "https://example.com/users", records: "$", primaryKey: ["id"],
///         columns: [.init("id", type: .integer), .init("name"), .init("city", path: "address.city")],
///         interval: .seconds(600))
/// ])
/// ```
public struct SyncConfiguration: Sendable {
    let configuration: Configuration

    /// Reads a syncd.toml file.
    ///
    /// - Throws: ``SyncConfigurationError`` naming the file, the line and the key of every problem.
    public init(contentsOfFile path: String) throws(SyncConfigurationError) {
        do {
            configuration = try Configuration.load(path: path)
        } catch {
            throw SyncConfigurationError(description: "\(error)")
        }
    }

    /// Reads TOML text, as a syncd.toml file would hold it; `sourcePath` names it in errors and anchors
    /// relative paths.
    public init(toml: String, sourcePath: String = "syncd.toml") throws(SyncConfigurationError) {
        do {
            configuration = try Configuration.parse(toml, sourcePath: sourcePath)
        } catch {
            throw SyncConfigurationError(description: "\(error)")
        }
    }

    /// Endpoints built in Swift, fetched at most `concurrency` at once by a scheduler.
    ///
    /// - Throws: ``SyncConfigurationError`` for an invalid name, path or key, or a name used twice.
    public init(endpoints: [SyncEndpoint], concurrency: Int = 4) throws(SyncConfigurationError) {
        guard ConfigurationBounds.concurrency.contains(concurrency) else {
            throw SyncConfigurationError(
                description: "concurrency must be \(ConfigurationBounds.describe(ConfigurationBounds.concurrency))")
        }
        var seen: Set<String> = []
        var built: [EndpointConfiguration] = []
        for endpoint in endpoints {
            guard seen.insert(endpoint.name).inserted else {
                throw SyncConfigurationError(description: "two endpoints are named \"\(endpoint.name)\"")
            }
            built.append(try endpoint.configuration())
        }
        configuration = Configuration(concurrency: concurrency, endpoints: built)
    }

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The endpoints' names, in order.
    public var endpointNames: [String] { configuration.endpoints.map(\.name.name) }

    /// The `database` the TOML named, if it did (absolute).
    public var databasePath: String? { configuration.database }
}

/// Why a configuration is refused, in one sentence per problem.
public struct SyncConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, one sentence each (with file:line and key for TOML).
    public var description: String
}

/// One endpoint, as an `[[endpoint]]` table of syncd.toml describes it. The options TOML has beyond these
/// (authentication, pagination, incremental cursors, rate limits) are set through ``SyncConfiguration/init(toml:sourcePath:)``.
public struct SyncEndpoint: Sendable, Hashable {
    /// Also the table's name: `^[a-z][a-z0-9_]{0,62}$`.
    public var name: String
    /// `http`, `https` or `file` URL.
    public var url: String
    /// The JSON path of the record array (`"$"` for the root); `nil` caches the whole body as one document.
    public var records: String?
    /// The key columns, by name.
    public var primaryKey: [String]
    /// The values extracted from each record into columns of the table.
    public var columns: [SyncColumn]
    /// How often a scheduler polls it. The default is 5 minutes.
    public var interval: Duration
    /// The random spread of the interval, as a fraction of it: 0...1.
    public var jitter: Double
    /// How long one request may take, body included. The default is 30 seconds.
    public var timeout: Duration
    /// Extra request headers.
    public var headers: [String: String]
    /// `true`: a response is upserted and never deletes (`mode = "incremental"`).
    public var upsertOnly: Bool

    /// An endpoint; only the name and the URL are required (no `records`: a document endpoint).
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
        self.headers = headers
        self.upsertOnly = upsertOnly
    }

    func configuration() throws(SyncConfigurationError) -> EndpointConfiguration {
        func refuse(_ sentence: String) -> SyncConfigurationError {
            SyncConfigurationError(description: "endpoint \"\(name)\": \(sentence)")
        }
        if let problem = NameRules.endpointProblem(name) { throw refuse(problem) }
        guard let identifier = try? SQLIdentifier(validating: name) else {
            throw SyncConfigurationError(description: "\"\(name)\" is not a valid endpoint name")
        }
        guard URLRules.isValid(url) else { throw refuse(URLRules.expected) }
        guard ConfigurationBounds.interval.contains(interval) else {
            throw refuse("interval must be \(ConfigurationBounds.describe(ConfigurationBounds.interval))")
        }
        guard ConfigurationBounds.timeout.contains(timeout) else {
            throw refuse("timeout must be \(ConfigurationBounds.describe(ConfigurationBounds.timeout))")
        }
        guard ConfigurationBounds.jitter.contains(jitter) else { throw refuse("jitter must be a number from 0 to 1") }
        // The TOML file's rule for headers (HTTPHeaderSyntax): values are never quoted.
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard HTTPHeaderSyntax.isToken(name) else {
                throw refuse("headers: \"\(ControlCharacters.escaped(name, .terminal))\" is not a valid header name")
            }
            guard !HTTPHeaderSyntax.hasForbiddenByte(value) else {
                throw refuse("headers: the value of \"\(name)\" must not contain CR, LF or NUL")
            }
        }
        var recordsPath: JSONPath?
        if let records {
            guard let path = try? JSONPath(parsing: records) else { throw refuse("records is not a JSON path") }
            recordsPath = path
        }
        var specs: [ColumnSpec] = []
        for column in columns {
            if let problem = NameRules.identifierProblem(column.name, kind: "column name") { throw refuse(problem) }
            guard let path = try? JSONPath(parsing: column.path ?? column.name) else {
                throw refuse("column \"\(column.name)\": \(column.path ?? column.name) is not a JSON path")
            }
            guard !specs.contains(where: { $0.name == column.name }) else {
                throw refuse("column \"\(column.name)\" is defined twice")
            }
            specs.append(ColumnSpec(name: column.name, path: path, type: column.type.type, required: column.required))
        }
        var key: [Int] = []
        for name in primaryKey {
            guard let index = specs.firstIndex(where: { $0.name == name }) else {
                throw refuse("the primary key \"\(name)\" is not a column")
            }
            guard !key.contains(index) else { throw refuse("the primary key names \"\(name)\" twice") }
            key.append(index)
        }
        if recordsPath != nil, key.isEmpty { throw refuse("a collection needs a primary key") }
        return EndpointConfiguration(
            name: identifier, url: url, interval: interval, jitter: jitter, timeout: timeout, records: recordsPath,
            primaryKey: key, mode: upsertOnly ? .incremental : .snapshot,
            headers: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }, columns: specs)
    }
}

/// A column of a record table: a value extracted from each record by JSON path.
public struct SyncColumn: Sendable, Hashable {
    /// What a column holds, as syncd.toml's `type` says.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case integer, real, text, boolean, json, timestamp

        var type: ColumnType { ColumnType(rawValue: rawValue) ?? .text }
    }

    /// The column's name: `^[a-z][a-z0-9_]{0,62}$`.
    public var name: String
    /// The JSON path in the record; `nil` is the column's name.
    public var path: String?
    /// How the value is stored. The default is text.
    public var type: Kind
    /// A record without this value is rejected (and reported) rather than stored with NULL.
    public var required: Bool

    /// A column named `name`, read from `path` (the name by default).
    public init(_ name: String, path: String? = nil, type: Kind = .text, required: Bool = false) {
        self.name = name
        self.path = path
        self.type = type
        self.required = required
    }
}
