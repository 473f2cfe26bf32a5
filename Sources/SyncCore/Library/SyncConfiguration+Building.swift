internal import SyncSQLite

/// The public ways to build a ``SyncConfiguration``: from a syncd.toml file, from TOML text, or from endpoints built
/// in Swift. Each refuses a configuration with every problem at once, as a ``SyncError``.
extension SyncConfiguration {
    /// Reads a syncd.toml file.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) naming the file, the line and the key of
    ///   every problem, one per line.
    public init(contentsOfFile path: String) throws(SyncError) {
        do {
            self = try SyncConfiguration.load(path: path)
        } catch {
            throw .invalidConfiguration(error)
        }
    }

    /// Reads TOML text, as a syncd.toml file would hold it; `sourcePath` names it in errors and anchors
    /// relative paths.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) with every problem, one per line.
    public init(toml: String, sourcePath: String = "syncd.toml") throws(SyncError) {
        do {
            self = try SyncConfiguration.parse(toml, sourcePath: sourcePath)
        } catch {
            throw .invalidConfiguration(error)
        }
    }

    /// Endpoints built in Swift, fetched at most `concurrency` at once by a scheduler.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) for an invalid name, path or key, or a name
    ///   used twice.
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
        if let problems = Optional(FanOutLink.link(&built)), !problems.isEmpty {
            throw .invalidConfiguration(
                problems.map { "endpoint \"\(built[$0.index].name.name)\": \($0.message)" }.joined(separator: "\n"))
        }
        self.init(concurrency: concurrency, endpoints: built)
    }
}

extension SyncEndpoint {
    /// Checks the endpoint by the rules syncd.toml is checked by, and builds what a sync runs by.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) with one sentence per problem, each starting
    ///   `endpoint "NAME": `.
    func configuration() throws(SyncError) -> EndpointConfiguration {
        var problems: [String] = []
        guard let compiled = compile(into: &problems), problems.isEmpty else {
            throw .invalidConfiguration(
                problems.map { "endpoint \"\(name)\": \($0)" }.joined(separator: "\n"))
        }
        return compiled
    }
}
