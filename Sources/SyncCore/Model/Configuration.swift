/// A validated syncd configuration: where the cache is, how the read API listens, and the endpoints to sync.
///
/// Build it from a file with ``load(path:)`` or from text with ``parse(_:sourcePath:)``; both refuse a file
/// with every problem at once, each naming its line and key (``ConfigurationError``). A value of this type
/// cannot hold a bad name, duration or path, so the rest of syncd uses it without checking again.
///
/// ```swift
/// let configuration = try Configuration.load(path: "/etc/syncd/syncd.toml")
/// for endpoint in configuration.endpoints { … }
/// ```
///
/// ## Topics
/// - ``ServerConfiguration``
/// - ``EndpointConfiguration``
/// - ``ConfigurationError``
package struct Configuration: Sendable, Equatable {
    /// The number of endpoints fetched at once when `[defaults]` does not say.
    package static let defaultConcurrency = 4
    /// The values `concurrency` may take.
    package static let concurrencyRange = ConfigurationBounds.concurrency

    /// The file the configuration came from, as given. The default is the empty string (built in code).
    package var sourcePath: String
    /// The database file, absolute: a relative `database` is resolved against the configuration file's
    /// directory. The default is nil: the caller picks `$STATE_DIRECTORY/cache.db`, else `./syncd.db`.
    package var database: String?
    /// The file holding the PostgreSQL database's password, absolute, when its URL holds none (`password_file`). The
    /// default is nil: `$CREDENTIALS_DIRECTORY/postgres-password`, else `PGPASSWORD`.
    package var passwordFile: String?
    /// The read API. The default listens on 127.0.0.1:8787.
    package var server: ServerConfiguration
    /// How `syncd run` shares a PostgreSQL database with other nodes (`[cluster]`).
    package var cluster: ClusterConfiguration
    /// How many endpoints are fetched at once (`[defaults] concurrency`). The default is 4; 1...64.
    package var concurrency: Int
    /// The endpoints, in file order. The default is none, which is valid: there is nothing to sync.
    package var endpoints: [EndpointConfiguration]

    package init(
        sourcePath: String = "",
        database: String? = nil,
        server: ServerConfiguration = ServerConfiguration(),
        cluster: ClusterConfiguration = ClusterConfiguration(),
        concurrency: Int = Configuration.defaultConcurrency,
        endpoints: [EndpointConfiguration] = []
    ) {
        self.sourcePath = sourcePath
        self.database = database
        self.server = server
        self.cluster = cluster
        self.concurrency = concurrency
        self.endpoints = endpoints
    }

    /// The endpoint with this name, if any.
    package func endpoint(named name: String) -> EndpointConfiguration? {
        endpoints.first { $0.name.name == name }
    }
}
