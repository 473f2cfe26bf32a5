public import FoundationEssentials
import SyncHTTP
import SyncSupport

/// When OAuth2 tokens were last renewed and when they expire, as the process that syncs records them in its state
/// folder: what `syncd status` and the read API's `/v1/endpoints` show of a token — never the token itself.
extension SyncCache {
    /// When an OAuth2 client's access token was last renewed, and when it expires.
    public struct TokenTimes: Sendable, Hashable {
        /// When the token was last renewed (RFC 3339, UTC).
        public var renewedAt: String
        /// When the token expires (RFC 3339, UTC).
        public var expiresAt: String
    }

    /// The state folder of a process that syncs into `store`, where it keeps each OAuth2 client's refresh token and
    /// token times: systemd's `$STATE_DIRECTORY` (its first folder), else the SQLite file's folder, else the
    /// current folder.
    ///
    /// - Parameters:
    ///   - store: The store the process syncs into; an SQLite file's folder is the fallback.
    ///   - environment: Where `STATE_DIRECTORY` is read; the process's by default.
    public static func stateDirectory(
        of store: SyncStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let folder = store.file.map(FilePathText.directory(of:)) ?? ""
        return OAuth2TokenFiles.stateDirectory(environment: environment, fallback: folder.isEmpty ? "." : folder)
    }

    /// When the access token of an OAuth2 credential's client was last renewed and when it expires, as the process
    /// that syncs with it recorded them in `stateDirectory`.
    ///
    /// ```swift
    /// let folder = SyncCache.stateDirectory(of: .sqlite(path: "/var/lib/syncd/cache.db"))
    /// if let times = SyncCache.tokenTimes(of: credential, stateDirectory: folder) { print(times.expiresAt) }
    /// ```
    ///
    /// - Parameters:
    ///   - credential: The credential whose OAuth2 client's token times are read.
    ///   - stateDirectory: The syncing process's state folder (``stateDirectory(of:environment:)``).
    /// - Returns: nil for a credential that is not OAuth2's (``Credential/isOAuth2``), before the token's first
    ///   renewal, or when the folder holds no times that can be read.
    public static func tokenTimes(of credential: Credential, stateDirectory: String) -> TokenTimes? {
        guard let client = credential.oauth2,
            let times = OAuth2TokenFiles(directory: stateDirectory, identity: client.identity).times()
        else { return nil }
        return TokenTimes(renewedAt: times.renewedAt, expiresAt: times.expiresAt)
    }
}

extension Credential {
    /// Whether the credential is an OAuth2 client's, whose access token syncd renews from a token endpoint
    /// (``SyncCache/tokenTimes(of:stateDirectory:)`` says when).
    public var isOAuth2: Bool { oauth2 != nil }
}
