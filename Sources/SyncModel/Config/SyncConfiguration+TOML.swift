import SyncSupport

extension SyncConfiguration {
    /// Reads and validates a configuration file.
    ///
    /// - Parameter path: The file, absolute or relative to the working directory; messages name it as given.
    /// - Returns: The validated configuration.
    /// - Throws: ``ConfigurationError``: `/etc/syncd/syncd.toml: no such file` when the file is missing (code
    ///   ``ConfigurationError/Code/fileNotFound``), when it cannot be read, is not valid TOML (line and column), or
    ///   is not a valid configuration (every problem, each with its line).
    package static func load(path: String) throws(ConfigurationError) -> SyncConfiguration {
        let text: String
        do {
            text = try ConfigurationFile.readText(atPath: path, limit: ConfigurationParser.maximumSize)
        } catch {
            let code: ConfigurationError.Code = error.isNotFound ? .fileNotFound : .unreadable
            throw ConfigurationError(
                code: code,
                problems: [ConfigurationError.Problem(file: path, message: error.reason)]
            )
        }
        return try parse(text, sourcePath: path)
    }

    /// Validates a configuration from its text.
    ///
    /// - Parameters:
    ///   - text: The TOML document.
    ///   - sourcePath: The file it came from: messages name it, and relative paths in it (`database`,
    ///     `token_file`, `*_file`) are resolved against its directory.
    /// - Returns: The validated configuration.
    /// - Throws: ``ConfigurationError`` with every problem found, in line order.
    package static func parse(_ text: String, sourcePath: String) throws(ConfigurationError) -> SyncConfiguration {
        try ConfigurationParser.parse(text, sourcePath: sourcePath)
    }
}
