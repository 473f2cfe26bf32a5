/// A configuration file that cannot be used, with every problem found in it.
///
/// Each problem names the file as it was given, the line, where in the file it is and what was expected:
///
/// ```
/// syncd.toml:14: [[endpoint]] "users": unknown key "intervall"
/// syncd.toml:21: [endpoint.columns] of "users": column "lat": required must be true or false
/// ```
///
/// The ``description`` is one problem a line, in line order. No secret appears in it: secrets are read later,
/// by ``SecretSource/resolve(environment:)``, and header values and URLs are never quoted.
///
/// ## Topics
/// - ``Problem``
/// - ``Code``
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for exit codes and fallbacks; compare with the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fileNotFound = "file not found"
            case unreadable = "unreadable"
            case syntax = "syntax error"
            case invalid = "invalid"
        }

        private let base: Base

        /// The file does not exist.
        package static let fileNotFound = Code(base: .fileNotFound)
        /// The file exists but cannot be read, or is not UTF-8 text.
        package static let unreadable = Code(base: .unreadable)
        /// The file is not valid TOML.
        package static let syntax = Code(base: .syntax)
        /// The file is TOML, but not a valid syncd configuration.
        package static let invalid = Code(base: .invalid)

        package var description: String { base.rawValue }
    }

    /// One problem, at one place in the file.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The file's path as it was given.
        package var file: String
        /// The 1-based line, when the problem has one.
        package var line: Int?
        /// The 1-based column: syntax errors only.
        package var column: Int?
        /// Where in the file: `[server]`, `[defaults]`, `[[endpoint]] "users"`, `[endpoint.columns] of "users"`;
        /// nil at the top level.
        package var context: String?
        /// What is wrong and what was expected.
        package var message: String

        package init(file: String, line: Int? = nil, column: Int? = nil, context: String? = nil, message: String) {
            self.file = file
            self.line = line
            self.column = column
            self.context = context
            self.message = message
        }

        /// `file:line[:column]: [context: ]message`.
        package var description: String {
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
}
