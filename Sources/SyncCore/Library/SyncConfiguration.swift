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
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) naming the file, the line and the key of every problem.
    public init(contentsOfFile path: String) throws(SyncError) {
        do {
            configuration = try Configuration.load(path: path)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
    }

    /// Reads TOML text, as a syncd.toml file would hold it; `sourcePath` names it in errors and anchors
    /// relative paths.
    public init(toml: String, sourcePath: String = "syncd.toml") throws(SyncError) {
        do {
            configuration = try Configuration.parse(toml, sourcePath: sourcePath)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
    }

    /// Endpoints built in Swift, fetched at most `concurrency` at once by a scheduler.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) for an invalid name, path or key, or a name used twice.
    public init(endpoints: [SyncEndpoint], concurrency: Int = 4) throws(SyncError) {
        guard ConfigurationBounds.concurrency.contains(concurrency) else {
            throw .invalidConfiguration(
                "concurrency must be \(ConfigurationBounds.describe(ConfigurationBounds.concurrency))")
        }
        var seen: Set<String> = []
        var built: [EndpointConfiguration] = []
        for endpoint in endpoints {
            guard seen.insert(endpoint.name).inserted else {
                throw .invalidConfiguration("two endpoints are named \"\(endpoint.name)\"")
            }
            built.append(try endpoint.configuration())
        }
        configuration = Configuration(concurrency: concurrency, endpoints: built)
    }

    /// A configuration the binary read (and reported on) itself.
    package init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The endpoints' names, in order.
    public var endpointNames: [String] { configuration.endpoints.map(\.name.name) }

    /// The `database` the TOML named, if it did (absolute).
    public var databasePath: String? { configuration.database }
}

extension SyncEndpoint {
    /// Checks the endpoint by the rules syncd.toml is checked by, and builds what a sync runs by.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) with one sentence per problem, each starting `endpoint "NAME": `.
    func configuration() throws(SyncError) -> EndpointConfiguration {
        var problems: [String] = []
        guard let compiled = compile(into: &problems), problems.isEmpty else {
            throw .invalidConfiguration(
                problems.map { "endpoint \"\(name)\": \($0)" }.joined(separator: "\n"))
        }
        return compiled
    }
}
