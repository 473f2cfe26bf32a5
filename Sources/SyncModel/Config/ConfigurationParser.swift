internal import SyncSQLite
import SyncSupport

/// Walks a TOML document, read by ``TOMLReader``, into a ``SyncConfiguration``, collecting every problem with its line.
///
/// Types are checked here, value by value, so that each message says what the key takes.
struct ConfigurationParser {
    /// The largest configuration file read: a few hundred endpoints take a few hundred KiB.
    static let maximumSize = 4 << 20

    /// Where values are in the document, for messages.
    struct Scope {
        var path: [TOMLDocument.Segment]
        /// `[server]`, `[[endpoint]] "users"`…; nil at the top level.
        var context: String?
    }

    /// A value, its key and where it is.
    struct Field {
        var key: String
        var value: TOMLValue
        var scope: Scope

        var path: [TOMLDocument.Segment] { scope.path + [.key(key)] }
    }

    let file: String
    /// The absolute directory of the configuration file: relative paths in it are resolved against it.
    let directory: String
    let document: TOMLDocument
    private(set) var problems: [ConfigurationError.Problem] = []
    /// The lines of the values another library reads after this reader (the PostgreSQL URLs), by key.
    var lines: [String: Int] = [:]
    /// The `webhook` options with `signature = "none"`, checked against `[server] listen` once it is read.
    var unsignedWebhooks: [Field] = []

    static func parse(_ text: String, sourcePath: String) throws(ConfigurationError) -> SyncConfiguration {
        guard text.utf8.count <= maximumSize else {
            let problem = ConfigurationError.Problem(
                file: sourcePath,
                message: "the file is larger than \(ByteCount.format(maximumSize)): is it the configuration?")
            throw ConfigurationError(code: .unreadable, problems: [problem])
        }
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count(where: { $0 == UInt8(ascii: "\n") }) + 1
            let problem = ConfigurationError.Problem(file: sourcePath, line: line, message: "the file holds a NUL byte")
            throw ConfigurationError(code: .syntax, problems: [problem])
        }
        let document: TOMLDocument
        document = try TOMLReader.read(text, file: sourcePath)
        var parser = ConfigurationParser(
            file: sourcePath,
            directory: PathResolution.directory(of: sourcePath),
            document: document
        )
        let configuration = parser.configuration(from: document.root)
        guard parser.problems.isEmpty else {
            throw ConfigurationError(code: .invalid, problems: parser.sortedProblems)
        }
        return configuration
    }

    private init(file: String, directory: String, document: TOMLDocument) {
        self.file = file
        self.directory = directory
        self.document = document
    }

    /// Problems without a line first, then by line; in the order found within a line.
    private var sortedProblems: [ConfigurationError.Problem] {
        problems.enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .map(\.element)
    }

    mutating func report(_ message: String, at path: [TOMLDocument.Segment], context: String?) {
        problems.append(
            ConfigurationError.Problem(file: file, line: document.line(of: path), context: context, message: message)
        )
    }

    mutating func report(_ message: String, at field: Field) {
        report(message, at: field.path, context: field.scope.context)
    }

    mutating func reportUnknownKey(_ field: Field) {
        report("unknown key \"\(field.key)\"", at: field)
    }

    /// The fields of a table, keys in the document's order.
    func fields(of table: TOMLTable, in scope: Scope) -> [Field] {
        table.keys.compactMap { key in table[key].map { Field(key: key, value: $0, scope: scope) } }
    }

    // MARK: - The top level

    private mutating func configuration(from root: TOMLTable) -> SyncConfiguration {
        var configuration = SyncConfiguration(sourcePath: file)
        let scope = Scope(path: [], context: nil)
        var defaults = SyncEndpoint(name: "", url: "")
        let rootFields = fields(of: root, in: scope)
        // [defaults] first: endpoints start from it.
        if let field = rootFields.first(where: { $0.key == "defaults" }) {
            if let table = field.value.table {
                parseDefaults(table, into: &defaults, configuration: &configuration)
            } else {
                report("defaults must be a table: write [defaults]", at: field)
            }
        }
        var passwordFileField: Field?
        for field in rootFields {
            guard ConfigurationKeys.isKnown(field.key, in: .root) else {
                reportUnknownKey(field)
                continue
            }
            switch field.key {
            case "database":
                configuration.databasePath = database(field)
            case "password_file":
                configuration.passwordFile = path(
                    field, what: "password_file must be a path to a file holding the PostgreSQL database's password")
                passwordFileField = field
            case "server":
                if let table = field.value.table {
                    configuration.server = parseServer(table)
                } else {
                    report("server must be a table: write [server]", at: field)
                }
            case "cluster":
                if let table = field.value.table {
                    configuration.cluster = parseCluster(table)
                } else {
                    report("cluster must be a table: write [cluster]", at: field)
                }
            case "defaults":
                break
            case "endpoint":
                configuration.plans = parseEndpoints(field, defaults: defaults)
            default:
                reportUnknownKey(field)
            }
        }
        if let passwordFileField, let database = configuration.databasePath, !DatabaseLocation.isPostgres(database) {
            report(
                "password_file is the PostgreSQL database's password, and database is an SQLite file",
                at: passwordFileField)
        }
        reportUnsignedWebhooks(listen: configuration.server.listen)
        configuration.databaseLine = lines["database"]
        configuration.server.readDatabaseLine = lines["read_database"]
        return configuration
    }

    private mutating func parseCluster(_ table: TOMLTable) -> SyncConfiguration.Cluster {
        var cluster = SyncConfiguration.Cluster()
        for field in fields(of: table, in: Scope(path: [.key("cluster")], context: "[cluster]")) {
            guard ConfigurationKeys.isKnown(field.key, in: .cluster) else {
                reportUnknownKey(field)
                continue
            }
            switch field.key {
            case "node":
                guard let name = string(field, what: "node must be a name such as \"syncd-1\"") else { continue }
                if let problem = SyncConfiguration.Cluster.problem(withName: name) {
                    report(problem, at: field)
                } else {
                    cluster.node = name
                }
            case "lease":
                if let lease = duration(field, in: ConfigurationBounds.lease) { cluster.lease = lease }
            default:
                reportUnknownKey(field)
            }
        }
        return cluster
    }

    private mutating func parseServer(_ table: TOMLTable) -> SyncConfiguration.Server {
        var server = SyncConfiguration.Server()
        var listenField: Field?
        for field in fields(of: table, in: Scope(path: [.key("server")], context: "[server]")) {
            guard ConfigurationKeys.isKnown(field.key, in: .server) else {
                reportUnknownKey(field)
                continue
            }
            switch field.key {
            case "listen":
                listenField = field
                if let listen = listen(field) { server.listen = listen }
            case "allow_remote":
                if let allow = bool(field) { server.allowRemote = allow }
            case "allow_revalidate":
                if let allow = bool(field) { server.allowRevalidate = allow }
            case "read_database":
                server.readDatabase = readDatabase(field)
            case "token_file":
                server.tokenFile = path(field, what: "token_file must be a path to a file holding the token")
                server.tokenLine = document.line(of: field.path)
                if server.tokenCredential != nil { report("set token_file or token_credential, not both", at: field) }
            case "token_credential":
                guard let name = field.value.string, !name.isEmpty, name != ".", name != "..", !name.contains("/")
                else {
                    report(
                        "token_credential must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)", at: field)
                    continue
                }
                server.tokenCredential = name
                server.tokenLine = document.line(of: field.path)
                if server.tokenFile != nil { report("set token_file or token_credential, not both", at: field) }
            case "max_rows":
                if let value = wholeNumber(field, in: ConfigurationBounds.maxRows) { server.maxRows = value }
            case "max_connections":
                if let value = wholeNumber(field, in: ConfigurationBounds.maxConnections) {
                    server.maxConnections = value
                }
            case "max_streams":
                if let value = wholeNumber(field, in: ConfigurationBounds.maxStreams) { server.maxStreams = value }
            default:
                reportUnknownKey(field)
            }
        }
        if let listenField, !server.listen.isLoopback, server.tokenSource == nil, !server.allowRemote {
            report(
                "listen \(listenField.value.string ?? "") is reachable from other machines and no token is set: "
                    + "set token_file or token_credential, or allow_remote = true", at: listenField)
        }
        return server
    }

    /// Reads `[defaults]` into `defaults`, the endpoint every `[[endpoint]]` starts from, and the settings only it
    /// holds (`concurrency`, `stop_grace`) into `configuration`.
    private mutating func parseDefaults(
        _ table: TOMLTable, into defaults: inout SyncEndpoint, configuration: inout SyncConfiguration
    ) {
        let tableFields = fields(of: table, in: Scope(path: [.key("defaults")], context: "[defaults]"))
        for field in tableFields {
            guard ConfigurationKeys.isKnown(field.key, in: .defaults) else {
                reportUnknownKey(field)
                continue
            }
            if applySetting(field, to: &defaults) { continue }
            switch field.key {
            case "concurrency":
                if let value = field.value.int, ConfigurationBounds.concurrency.contains(value) {
                    configuration.concurrency = value
                } else {
                    report(
                        "concurrency must be an integer \(ConfigurationBounds.describe(ConfigurationBounds.concurrency))",
                        at: field)
                }
            case "stop_grace":
                if let grace = duration(field, in: ConfigurationBounds.stopGrace) { configuration.stopGrace = grace }
            case "name", "url", "records", "primary_key", "columns":
                report("\"\(field.key)\" is set in each [[endpoint]], not in [defaults]", at: field)
            default:
                reportUnknownKey(field)
            }
        }
        reportBounds(of: defaults, in: tableFields)
    }

    private mutating func parseEndpoints(_ field: Field, defaults: SyncEndpoint) -> [EndpointConfiguration] {
        guard let array = field.value.array, array.allSatisfy({ $0.table != nil }) else {
            report("endpoint must be an array of tables: write [[endpoint]]", at: field)
            return []
        }
        var endpoints: [EndpointConfiguration] = []
        var positions: [Int] = []
        var lines: [String: Int] = [:]
        for (position, element) in array.enumerated() {
            guard let table = element.table else { continue }
            let path: [TOMLDocument.Segment] = [.key("endpoint"), .index(position)]
            if let name = table["name"]?.string {
                if let first = lines[name] {
                    report(
                        "the name \"\(name)\" is already used by the endpoint at line \(first)",
                        at: path + [.key("name")],
                        context: "[[endpoint]] \"\(name)\""
                    )
                } else {
                    lines[name] = document.line(of: path) ?? 0
                }
            }
            if let endpoint = self.endpoint(table, position: position, defaults: defaults) {
                endpoints.append(endpoint)
                positions.append(position)
            }
        }
        for problem in FanOutLink.link(&endpoints) {
            let name = endpoints[problem.index].name.name
            report(
                problem.message, at: [.key("endpoint"), .index(positions[problem.index]), .key(problem.key)],
                context: "[[endpoint]] \"\(name)\"")
        }
        return endpoints
    }
}
