import SyncSupport

/// Where a secret comes from: the code, an environment variable, a file, or a systemd credential.
///
/// The configuration holds only the source; the secret is read when it is needed, and errors name the source
/// (the variable, the path, the credential's name), never the secret.
package enum SecretSource: Sendable, Hashable {
    /// The secret itself, given in code (``Secret/literal(_:)``); never part of a message.
    case literal(String)
    /// An environment variable, by name (`*_env`).
    case environment(String)
    /// A file, by absolute path (`*_file`); one trailing newline is not part of the secret.
    case file(String)
    /// A file in `$CREDENTIALS_DIRECTORY`, by name (`credential`), as systemd's `LoadCredential=` provides it.
    case credential(String)

    /// Reads the secret.
    ///
    /// ```swift
    /// let token = try source.resolve(environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Parameter environment: The process environment: variables for ``environment(_:)``,
    ///   `CREDENTIALS_DIRECTORY` for ``credential(_:)``.
    /// - Returns: The secret, without one trailing newline when read from a file.
    /// - Throws: ``ConfigurationError`` (``ConfigurationError/Code/notSet``, ``ConfigurationError/Code/fileNotFound``, …) when the variable is unset, the file cannot be read, or the secret is empty or
    ///   holds a line break or NUL (it would split a header). The error names the source, never the secret.
    package func resolve(environment: [String: String]) throws(ConfigurationError) -> String {
        switch self {
        case .literal(let value):
            return try Self.checked(value, from: self)
        case .environment(let name):
            guard let value = environment[name] else { throw Self.error(.notSet, source: self, "is not set") }
            return try Self.checked(value, from: self)
        case .file(let path):
            return try Self.read(path: path, from: self)
        case .credential(let name):
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw Self.error(
                    .noCredentialsDirectory, source: self,
                    ": $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)")
            }
            return try Self.read(path: directory + "/" + name, from: self)
        }
    }

    /// How messages name the source: `environment variable USERS_TOKEN`, `secret file /etc/syncd/token`,
    /// `credential "users_token"`.
    package var sourceDescription: String {
        switch self {
        case .literal: "the literal secret"
        case .environment(let name): "environment variable \(name)"
        case .file(let path): "secret file \(path)"
        case .credential(let name): "credential \"\(name)\""
        }
    }

    /// The largest secret file read: tokens and passwords are short, and a path to the wrong file (or to
    /// `/dev/zero`) must not fill the memory.
    static let maximumSize = 64 << 10

    private static func read(path: String, from source: SecretSource) throws(ConfigurationError) -> String {
        var bytes: [UInt8]
        do {
            bytes = try ConfigurationFile.readBytes(atPath: path, limit: maximumSize)
        } catch {
            if error.isNotFound, case .credential = source {
                throw Self.error(.fileNotFound, source: source, ": no such file in $CREDENTIALS_DIRECTORY")
            }
            throw Self.error(error.isNotFound ? .fileNotFound : .unreadable, source: source, ": " + error.reason)
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        guard let value = String(validating: bytes, as: UTF8.self) else {
            throw Self.error(.invalid, source: source, "is not UTF-8 text")
        }
        return try checked(value, from: source)
    }

    private static func checked(_ value: String, from source: SecretSource) throws(ConfigurationError) -> String {
        guard !value.isEmpty else { throw Self.error(.invalid, source: source, "is empty") }
        guard !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }) else {
            throw Self.error(.invalid, source: source, "holds a line break or NUL")
        }
        return value
    }
}

extension SecretSource {
    /// `environment variable USERS_TOKEN is not set`: the source's name, then `predicate` (with its own separator).
    fileprivate static func error(
        _ code: ConfigurationError.Code, source: SecretSource, _ predicate: String
    ) -> ConfigurationError {
        let separator = predicate.hasPrefix(":") ? "" : " "
        let problem = ConfigurationError.Problem(file: nil, message: source.sourceDescription + separator + predicate)
        return ConfigurationError(code: code, problems: [problem])
    }
}
