extension SyncConfiguration {
    /// The local read API (`[server]`): where it listens, whether readers need a token, and how much one answer holds.
    public struct Server: Sendable, Hashable {
        /// Where the read API listens.
        public enum Listen: Sendable, Hashable {
            /// A TCP address; `host` is a name or an IP address (IPv6 without brackets).
            case tcp(host: String, port: Int)
            /// A Unix domain socket.
            case unix(path: String)
            /// No read API.
            case off
        }

        /// Where the read API listens when the file does not say.
        package static let defaultListen = Listen.tcp(host: "127.0.0.1", port: 8787)
        /// The most records one list or change-feed answer holds when the file does not say (PostgREST's `db-max-rows`).
        package static let defaultMaxRows = 1000
        /// Read API connections open at once unless `max_connections` says otherwise: a few dashboards and scripts
        /// each, with room to spare, on the 1,024 descriptors a service gets by default.
        package static let defaultMaxConnections = 512
        /// Event streams and long polls of the change feed open at once unless `max_streams` says otherwise: half the
        /// connections, so that streams never take every one.
        package static let defaultMaxStreams = 256

        /// Where the read API listens. The default is 127.0.0.1:8787.
        public package(set) var listen: Listen
        /// A file holding the token readers must send as `Authorization: Bearer <token>`. The default is nil: no token.
        public package(set) var tokenFile: String?
        /// The name of a systemd credential (`LoadCredential=`) holding the token. At most one of the two is set.
        public package(set) var tokenCredential: String?
        /// The line of `token_file` or `token_credential` in the file, for messages about the token; not part of
        /// equality, so a reload that only moves the line is no change.
        public package(set) var tokenLine: Int?
        /// Whether a `listen` other machines can reach may go without a token (`allow_remote`). The default is false:
        /// such a configuration is refused.
        public package(set) var allowRemote: Bool
        /// The most records one answer of a list (`/records`, `/rest`) or of the change feed holds; a larger `limit` is
        /// clamped to it. The default is 1000; 1...100,000.
        public package(set) var maxRows: Int
        /// `max_connections`: read API connections open at once; the daemon lowers it to what its descriptor limit
        /// leaves after the syncs' share.
        public package(set) var maxConnections: Int
        /// `max_streams`: change-feed event streams (`Accept: text/event-stream`) and long polls (`wait=`) open at
        /// once; one more is answered 503 with `Retry-After`. 0 turns both off. The default is 256; 0...65,536.
        public package(set) var maxStreams: Int
        /// `allow_revalidate`: a read API request with `Cache-Control: max-age=N` (or `no-cache`) has the endpoint
        /// synced first when its copy is older than N seconds (``SyncCache/refresh(_:olderThan:within:)``). The
        /// default is false: the request's `Cache-Control` is not read. A reload applies it.
        public package(set) var allowRevalidate = false
        /// A PostgreSQL URL the read API reads from instead of `database`: a streaming replica (hot standby), so that
        /// readers scale with PostgreSQL's own replicas. The default is nil: the read API reads `database`.
        public package(set) var readDatabase: String?
        /// The line of `read_database` in the file, for SyncPostgres' messages about the URL; not part of equality.
        package var readDatabaseLine: Int?

        package init(
            listen: Listen = Server.defaultListen, tokenFile: String? = nil, tokenCredential: String? = nil,
            allowRemote: Bool = false, maxRows: Int = Server.defaultMaxRows,
            maxConnections: Int = Server.defaultMaxConnections, maxStreams: Int = Server.defaultMaxStreams
        ) {
            self.listen = listen
            self.tokenFile = tokenFile
            self.tokenCredential = tokenCredential
            self.allowRemote = allowRemote
            self.maxRows = maxRows
            self.maxConnections = maxConnections
            self.maxStreams = maxStreams
        }

        /// Where the token comes from, if readers must send one.
        package var tokenSource: SecretSource? {
            if let tokenFile { return .file(tokenFile) }
            if let tokenCredential { return .credential(tokenCredential) }
            return nil
        }

        public static func == (lhs: Server, rhs: Server) -> Bool {
            (lhs.listen, lhs.tokenFile, lhs.tokenCredential, lhs.allowRemote, lhs.maxRows, lhs.readDatabase)
                == (rhs.listen, rhs.tokenFile, rhs.tokenCredential, rhs.allowRemote, rhs.maxRows, rhs.readDatabase)
                && (lhs.maxConnections, lhs.maxStreams) == (rhs.maxConnections, rhs.maxStreams)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(listen)
            hasher.combine(tokenFile)
            hasher.combine(tokenCredential)
            hasher.combine(allowRemote)
            hasher.combine(maxRows)
            hasher.combine(maxConnections)
            hasher.combine(maxStreams)
            hasher.combine(readDatabase)
        }
    }
}
