import SyncSupport

/// Readers for single values: each returns nil after reporting what was expected.
extension ConfigurationParser {
    /// A non-empty string.
    mutating func string(_ field: Field, what expected: String) -> String? {
        guard let value = field.value.string, !value.isEmpty else {
            report(expected, at: field)
            return nil
        }
        return value
    }

    /// `database`: the path of an SQLite file, made absolute against the configuration file's directory, or a
    /// PostgreSQL URL, kept as written (its line is kept for SyncPostgres, which reads it).
    mutating func database(_ field: Field) -> String? {
        let expected = "database must be a path to the database file, or a postgresql:// URL"
        guard let text = string(field, what: expected) else { return nil }
        guard DatabaseLocation.isPostgres(text) else { return PathResolution.resolve(text, against: directory) }
        return postgresURL(text, field)
    }

    /// `[server] read_database`: a PostgreSQL URL (a streaming replica of `database`), kept as written.
    mutating func readDatabase(_ field: Field) -> String? {
        let expected = "read_database must be a postgresql:// URL: a streaming replica of the database"
        guard let text = string(field, what: expected) else { return nil }
        guard DatabaseLocation.isPostgres(text) else {
            report(expected, at: field)
            return nil
        }
        return postgresURL(text, field)
    }

    /// A PostgreSQL URL, kept as written: SyncPostgres reads it (`SyncConfiguration.postgresProblems()`, at the line
    /// recorded here, or when a cache opens the store).
    private mutating func postgresURL(_ text: String, _ field: Field) -> String? {
        lines[field.key] = document.line(of: field.path)
        return text
    }

    /// A path, made absolute against the configuration file's directory.
    mutating func path(_ field: Field, what expected: String) -> String? {
        string(field, what: expected).map { PathResolution.resolve($0, against: directory) }
    }

    mutating func bool(_ field: Field) -> Bool? {
        guard let value = field.value.bool else {
            report("\(field.key) must be true or false", at: field)
            return nil
        }
        return value
    }

    /// A duration, written as a string (`"30s"`).
    mutating func duration(_ field: Field) -> Duration? {
        guard let text = field.value.string, let duration = ConfigDuration.parse(text) else {
            report("\(field.key) must be a duration such as \"30s\" or \"5m\"", at: field)
            return nil
        }
        return duration
    }

    /// A duration within `range`, written as a string (`"30s"`).
    mutating func duration(_ field: Field, in range: ClosedRange<Duration>) -> Duration? {
        guard let duration = duration(field) else { return nil }
        if let problem = EndpointRules.duration(field.key, duration, in: range) {
            report(problem, at: field)
            return nil
        }
        return duration
    }

    /// A size: a string with a unit (`"64MiB"`) or an integer number of bytes.
    mutating func size(_ field: Field) -> Int? {
        guard let bytes = field.value.int ?? field.value.string.flatMap(ByteSize.parse) else {
            report("\(field.key) must be a size such as \"64MiB\" or \"512KiB\", or a number of bytes", at: field)
            return nil
        }
        return bytes
    }

    /// A whole number within `range`; `what` names it in the message (`pagination: start`).
    mutating func wholeNumber(_ field: Field, in range: ClosedRange<Int>, what: String? = nil) -> Int? {
        // Not an integer reads as out of range, which the rule refuses in the same words.
        let value = field.value.int ?? Int.min
        if let problem = EndpointRules.wholeNumber(what ?? field.key, value, in: range) {
            report(problem, at: field)
            return nil
        }
        return value
    }

    /// `[server] listen`.
    mutating func listen(_ field: Field) -> SyncConfiguration.Server.Listen? {
        guard let text = field.value.string, let listen = SyncConfiguration.Server.Listen(parsing: text) else {
            report("listen must be \"HOST:PORT\", \"[IPv6]:PORT\", \"unix:/PATH\" or \"off\"", at: field)
            return nil
        }
        guard case .unix(let socket) = listen else { return listen }
        let path = PathResolution.resolve(socket, against: directory)
        // sockaddr_un.sun_path holds 108 bytes, the last a NUL.
        guard path.utf8.count <= 107 else {
            report("listen: a Unix socket path must be at most 107 bytes long", at: field)
            return nil
        }
        return .unix(path: path)
    }
}
