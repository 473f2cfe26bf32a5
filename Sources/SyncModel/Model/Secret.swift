extension Credential {
    /// Where a credential's secret comes from: the value itself, an environment variable, a file, or a systemd
    /// credential.
    ///
    /// Apart from ``literal(_:)``, a secret is read when each request is built, the way syncd reads the secrets of its
    /// configuration. Errors name the source (the variable, the path, the credential), never the secret.
    ///
    /// ```swift
    /// let token = Credential.Secret.environment("USERS_TOKEN")
    /// let key = Credential.Secret.systemdCredential("users_key")  // $CREDENTIALS_DIRECTORY/users_key
    /// let credential = Credential.bearer(.environment("USERS_TOKEN"))
    /// ```
    ///
    /// ## Topics
    ///
    /// - ``literal(_:)``
    /// - ``environment(_:)``
    /// - ``file(path:)``
    /// - ``systemdCredential(_:)``
    public struct Secret: Sendable, Hashable, CustomStringConvertible {
        /// Where the secret is; a literal one is held here, and never printed.
        package let source: SecretSource

        /// The secret given in code.
        ///
        /// - Parameter value: The secret; it must not be empty nor hold a line break.
        public static func literal(_ value: String) -> Secret { Secret(source: .literal(value)) }

        /// The value of an environment variable of the process.
        ///
        /// - Parameter name: The variable's name.
        public static func environment(_ name: String) -> Secret { Secret(source: .environment(name)) }

        /// The contents of a file, without one trailing newline.
        ///
        /// - Parameter path: The file's absolute path.
        public static func file(path: String) -> Secret { Secret(source: .file(path)) }

        /// A file in `$CREDENTIALS_DIRECTORY`, as systemd's `LoadCredential=` provides it.
        ///
        /// - Parameter name: The credential's name.
        public static func systemdCredential(_ name: String) -> Secret { Secret(source: .credential(name)) }

        /// Where the secret is (`environment variable USERS_TOKEN`), never the secret itself.
        public var description: String { source.sourceDescription }
    }
}
