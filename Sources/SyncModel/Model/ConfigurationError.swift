/// The model's one error: a configuration that cannot be used, with every problem found in it, or a secret it names
/// that cannot be read.
///
/// Each problem in a file names the file as it was given, the line, where in the file it is and what was expected:
///
/// ```
/// syncd.toml:14: [[endpoint]] "users": unknown key "intervall"
/// syncd.toml:21: [endpoint.columns] of "users": column "lat": required must be true or false
/// ```
///
/// A secret that cannot be read names where it was looked for, never the secret
/// (``SecretSource/resolve(environment:)``):
///
/// ```
/// environment variable USERS_TOKEN is not set
/// secret file /etc/syncd/users.token: no such file
/// credential "users_token": $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)
/// ```
///
/// The ``description`` is one problem a line, in line order. No secret appears in it, and header values and URLs
/// are never quoted. `==` compares codes only.
///
/// ## Topics
/// - ``Problem``
/// - ``Code``
package struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is, for exit codes and fallbacks; compare with the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fileNotFound = "file not found"
            case unreadable = "unreadable"
            case syntax = "syntax error"
            case invalid = "invalid"
            case notSet = "not set"
            case noCredentialsDirectory = "no credentials directory"
        }

        private let base: Base

        /// The file (or secret file, or credential) does not exist.
        package static let fileNotFound = Code(base: .fileNotFound)
        /// The file exists but cannot be read, or is not UTF-8 text.
        package static let unreadable = Code(base: .unreadable)
        /// The file is not valid TOML.
        package static let syntax = Code(base: .syntax)
        /// The file is TOML, but not a valid syncd configuration; or a secret is empty, or holds a line break or NUL.
        package static let invalid = Code(base: .invalid)
        /// A secret's environment variable is not set.
        package static let notSet = Code(base: .notSet)
        /// A credential is named but `$CREDENTIALS_DIRECTORY` is not set.
        package static let noCredentialsDirectory = Code(base: .noCredentialsDirectory)

        package var description: String { base.rawValue }
    }

    /// One problem, at one place in the file.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The file's path as it was given; nil for a secret, which names its source in ``message``.
        package var file: String?
        /// The 1-based line, when the problem has one.
        package var line: Int?
        /// The 1-based column: syntax errors only.
        package var column: Int?
        /// Where in the file: `[server]`, `[defaults]`, `[[endpoint]] "users"`, `[endpoint.columns] of "users"`;
        /// nil at the top level.
        package var context: String?
        /// What is wrong and what was expected.
        package var message: String

        package init(file: String?, line: Int? = nil, column: Int? = nil, context: String? = nil, message: String) {
            self.file = file
            self.line = line
            self.column = column
            self.context = context
            self.message = message
        }

        /// `file:line[:column]: [context: ]message`; the message alone for a secret.
        package var description: String {
            guard let file else { return message }
            var text = file
            if let line { text += ":\(line)" }
            if let column { text += ":\(column)" }
            if let context { text += ": \(context)" }
            return text + ": " + message
        }
    }

    /// What kind of failure this is.
    package var code: Code
    /// Every problem found, in line order (problems without a line first).
    package var problems: [Problem]

    package init(code: Code, problems: [Problem]) {
        self.code = code
        self.problems = problems
    }

    /// One problem a line.
    package var description: String {
        problems.map(\.description).joined(separator: "\n")
    }

    package static func == (lhs: ConfigurationError, rhs: ConfigurationError) -> Bool { lhs.code == rhs.code }

    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
