internal import SyncSQLite

/// What syncd runs by: the endpoints to sync, how many at once, where the cache is, how the read API listens and how
/// nodes share a PostgreSQL database. syncd.toml reads into it (every key, with file:line in every error), and Swift
/// builds it from ``SyncEndpoint`` values; both check by the same rules, so a value of this type cannot hold a bad
/// name, duration or path.
///
/// ```swift
/// let configuration = try SyncConfiguration(endpoints: [
///     SyncEndpoint(
///         name: "users", url: "https://example.com/users", records: "$", primaryKey: ["id"],
///         columns: [.init("id", type: .integer), .init("name"), .init("city", path: "address.city")],
///         interval: .seconds(600))
/// ])
/// let fromFile = try SyncConfiguration(contentsOfFile: "/etc/syncd/syncd.toml")
/// ```
///
/// ## Topics
/// - ``Server``
/// - ``Cluster``
/// - ``SyncEndpoint``
public struct SyncConfiguration: Sendable, Equatable {
    /// The number of endpoints fetched at once when `[defaults]` does not say.
    package static let defaultConcurrency = 4
    package static let defaultStopGrace = Duration.seconds(10)
    /// The values `concurrency` may take.
    package static let concurrencyRange = ConfigurationBounds.concurrency

    /// The file the configuration was read from, as given; the empty string when built in Swift.
    public package(set) var sourcePath: String
    /// The `database` the file names, absolute (a relative one is resolved against the file's folder): an SQLite
    /// file or a `postgresql://` URL. nil when it names none: syncd then uses `$STATE_DIRECTORY/cache.db`, else
    /// `./syncd.db`.
    public package(set) var databasePath: String?
    /// The line of `database` in the file, when it holds a PostgreSQL URL: SyncPostgres reads the URL, and names the
    /// line.
    package var databaseLine: Int?
    /// The file holding the PostgreSQL database's password, absolute, when its URL holds none (`password_file`). nil:
    /// `$CREDENTIALS_DIRECTORY/postgres-password`, else `PGPASSWORD`.
    public package(set) var passwordFile: String?
    /// The read API (`[server]`). The default listens on 127.0.0.1:8787.
    public package(set) var server: Server
    /// How `syncd run` shares a PostgreSQL database with other nodes (`[cluster]`).
    public package(set) var cluster: Cluster
    /// How many endpoints are fetched at once (`[defaults] concurrency`): 1...64. The default is 4.
    public package(set) var concurrency: Int
    /// How long the syncs in flight when ``SyncCache/run(onSync:)`` is asked to stop may go on before they are
    /// cancelled and roll back (`[defaults] stop_grace`): 0 s…1 h. The default is 10 s, a third of the
    /// `TimeoutStopSec=30s` of the unit syncd ships.
    public package(set) var stopGrace: Duration = SyncConfiguration.defaultStopGrace
    /// The endpoints compiled: what syncs run by, in file order. None is valid: there is nothing to sync.
    package var plans: [EndpointConfiguration]

    package init(
        sourcePath: String = "",
        database: String? = nil,
        server: Server = Server(),
        cluster: Cluster = Cluster(),
        concurrency: Int = SyncConfiguration.defaultConcurrency,
        endpoints: [EndpointConfiguration] = []
    ) {
        self.sourcePath = sourcePath
        self.databasePath = database
        self.server = server
        self.cluster = cluster
        self.concurrency = concurrency
        self.plans = endpoints
    }

    /// The endpoints, in order, as declared: in syncd.toml (with `[defaults]` applied) or in Swift.
    public var endpoints: [SyncEndpoint] { plans.map(\.declared) }

    /// The endpoints' names, in order.
    public var endpointNames: [String] { plans.map(\.name.name) }

    /// The endpoint of that name, as declared; nil when there is none.
    public func endpoint(named name: String) -> SyncEndpoint? {
        plan(named: name)?.declared
    }

    /// The compiled endpoint of that name, if any.
    package func plan(named name: String) -> EndpointConfiguration? {
        plans.first { $0.name.name == name }
    }
}
