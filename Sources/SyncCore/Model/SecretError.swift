/// A secret that could not be read. The message names where it was looked for, never the secret.
///
/// ```
/// environment variable USERS_TOKEN is not set
/// secret file /etc/syncd/users.token: no such file
/// credential "users_token": $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)
/// ```
///
/// Two errors are equal when their codes are.
package struct SecretError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; compare with the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notSet = "not set"
            case notFound = "not found"
            case unreadable
            case noCredentialsDirectory = "no credentials directory"
            case empty
            case invalid
        }

        private let base: Base

        /// The environment variable is not set.
        package static let notSet = Code(base: .notSet)
        /// The file (or credential) does not exist.
        package static let notFound = Code(base: .notFound)
        /// The file (or credential) exists but cannot be read.
        package static let unreadable = Code(base: .unreadable)
        /// A credential is named but `$CREDENTIALS_DIRECTORY` is not set.
        package static let noCredentialsDirectory = Code(base: .noCredentialsDirectory)
        /// The secret is empty.
        package static let empty = Code(base: .empty)
        /// The secret is not UTF-8, or holds a line break or NUL.
        package static let invalid = Code(base: .invalid)

        package var description: String { base.rawValue }
    }

    /// What went wrong.
    package var code: Code
    /// Where the secret was looked for.
    package var source: SecretSource
    private var reason: String?

    init(code: Code, source: SecretSource, reason: String? = nil) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    package var description: String {
        let name = source.sourceDescription
        switch code {
        case .notSet: return "\(name) is not set"
        case .empty: return "\(name) is empty"
        case .noCredentialsDirectory:
            return "\(name): $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)"
        case .notFound where source.isCredential: return "\(name): no such file in $CREDENTIALS_DIRECTORY"
        case .invalid: return "\(name) \(reason ?? "is not a valid secret")"
        default: return "\(name): \(reason ?? code.description)"
        }
    }

    package static func == (lhs: SecretError, rhs: SecretError) -> Bool { lhs.code == rhs.code }
}

extension SecretSource {
    fileprivate var isCredential: Bool {
        if case .credential = self { true } else { false }
    }
}
