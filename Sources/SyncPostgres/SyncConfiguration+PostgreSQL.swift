public import SyncCore

/// The PostgreSQL URLs of a configuration, read by the library that knows PostgreSQL: SyncCore's reader checks only
/// their scheme, and keeps their lines for the messages here.
extension SyncConfiguration {
    /// The PostgreSQL URLs the file names (`database`, `[server] read_database`) that cannot be read, one problem
    /// each in the reader's own form, naming the line and the key and never the password:
    /// `syncd.toml:1: database: the PostgreSQL database URL has an unknown sslmode "sometimes"`. Empty when both read.
    ///
    /// `syncd` refuses such a configuration with these lines, as it refuses one its reader refused; a cache that
    /// opens a store from a URL that cannot be read fails with ``SyncError/Code/cannotOpen`` instead.
    public func postgresProblems() -> [String] {
        var problems: [String] = []
        if let url = databasePath, PostgresLocation.isPostgres(url), let error = Self.problem(url) {
            problems.append(
                ConfigurationError.Problem(file: sourcePath, line: databaseLine, message: "database: \(error)")
                    .description)
        }
        if let url = server.readDatabase, let error = Self.problem(url) {
            problems.append(
                ConfigurationError.Problem(
                    file: sourcePath, line: server.readDatabaseLine, context: "[server]",
                    message: "read_database: \(error)"
                ).description)
        }
        return problems
    }

    private static func problem(_ url: String) -> PostgresLocationError? {
        do {
            _ = try PostgresLocation(parsing: url)
            return nil
        } catch {
            return error
        }
    }
}
