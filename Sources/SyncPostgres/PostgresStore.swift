internal import FoundationEssentials
package import Logging
internal import NIOCore
internal import NIOPosix
internal import NIOSSL
internal import PostgresNIO
internal import SyncCore
import SyncSupport
internal import Synchronization

/// A PostgreSQL database that holds syncd's store: a pool of connections (PostgresNIO's `PostgresClient`) and the
/// threads that use them.
///
/// syncd's writes and reads are written as plain sequential code, as they are for SQLite: each runs on a thread of
/// the store's own pool with one leased connection (a ``PostgresSession``), and waits there for each statement. No
/// cooperative thread and no event loop ever waits.
package final class PostgresStore: Sendable {
    package let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    private let threads: NIOThreadPool
    /// The generation readers see (``PostgresReadStorage/generation()``), and the WAL position it was last moved for.
    private let commits = Mutex<(generation: Int64, walPosition: Int64?)>((0, nil))
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    /// Connects to `location`, migrates syncd's tables to this binary's version (one node at a time, under an
    /// advisory lock) and returns the store.
    ///
    /// - Parameters:
    ///   - password: The password, when the URL holds none (see ``password(for:environment:)``).
    ///   - connections: At most this many connections at once.
    /// - Throws: ``PostgresStoreError`` when the server cannot be reached or refuses, or the database is newer.
    package static func open(
        _ location: PostgresLocation, password: String?, connections: Int = 8, logger: Logger
    ) async throws -> PostgresStore {
        // The waiting open, on a thread made for blocking work: no cooperative thread waits for the server.
        try await NIOThreadPool.singleton.runIfActive {
            try openWaiting(location, password: password, connections: connections, logger: logger)
        }
    }

    /// ``open(_:password:connections:logger:)`` for a caller that is not async (``SyncStore``'s opener): it waits on
    /// this thread, which must not be an event loop's.
    package static func openWaiting(
        _ location: PostgresLocation, password: String?, connections: Int = 8, logger: Logger
    ) throws -> PostgresStore {
        // One connection first, made once: a server that is not there, or refuses, fails the open at once with its
        // reason (the pool would keep trying). It migrates, then closes.
        do {
            let connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(),
                configuration: try connectionConfiguration(location, password: password), id: 0, logger: logger
            ).wait()
            defer { try? connection.close().wait() }
            try PostgresMigrations().migrate(
                PostgresSession(connection: connection, logger: logger))
        } catch {
            throw PostgresStoreError(location: location, error)
        }
        return PostgresStore(location, password: password, connections: connections, logger: logger)
    }

    /// The TLS of a connection as `location`'s `sslmode` asks. Every mode that uses TLS verifies the certificate and
    /// the host name (NIOSSL's client default): see ``PostgresLocation``.
    private static func connectionConfiguration(_ location: PostgresLocation, password: String?) throws
        -> PostgresConnection.Configuration
    {
        var configuration: PostgresConnection.Configuration
        if location.isUnixSocket {
            configuration = .init(
                unixSocketPath: "\(location.host)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password ?? password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch location.sslMode {
            case .disable: tls = .disable
            case .allow, .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require, .verifyCA, .verifyFull:
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = .init(
                host: location.host, port: location.port, username: location.user,
                password: location.password ?? password, database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(location.connectTimeout))
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        return configuration
    }

    private init(_ location: PostgresLocation, password: String?, connections: Int, logger: Logger) {
        var configuration: PostgresClient.Configuration
        if location.isUnixSocket {
            configuration = .init(
                unixSocketPath: "\(location.host)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password ?? password, database: location.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            // As connectionConfiguration(_:password:) says.
            let verified = TLSConfiguration.makeClientConfiguration()
            switch location.sslMode {
            case .disable: tls = .disable
            case .allow, .prefer: tls = .prefer(verified)
            case .require, .verifyCA, .verifyFull: tls = .require(verified)
            }
            configuration = .init(
                host: location.host, port: location.port, username: location.user,
                password: location.password ?? password, database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(location.connectTimeout))
        configuration.options.maximumConnections = max(1, connections)
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        self.location = location
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        // Started at once, on this thread, up to its first wait: the client counts as running before any lease (a
        // lease before that is served too, but warns that run() was not called).
        runner = Task.immediate { await client.run() }
        threads = NIOThreadPool(numberOfThreads: max(1, connections))
        threads.start()
    }

    /// A number that moves with every commit this process makes, and within ``watchInterval`` of any other's.
    package var generation: Int64 { commits.withLock { $0.generation } }

    /// Moves ``generation``: called after each transaction that wrote.
    package func noteCommit() {
        commits.withLock { $0.generation &+= 1 }
    }

    /// How often the server's WAL position is read to notice other processes' commits (other nodes, `psql`).
    package static let watchInterval: Duration = .milliseconds(200)

    /// Starts reading the server's WAL position every ``watchInterval``, once: a position that moved moves
    /// ``generation``. Every commit writes the WAL; so do other things (vacuum, checkpoints), which only cost readers
    /// a cache miss. On a standby the replayed position is read.
    package func watchCommits() {
        watcher.withLock { watcher in
            guard watcher == nil else { return }
            watcher = Task { [weak self] in
                while !Task.isCancelled {
                    guard let self else { return }
                    if let position = try? await self.withSession({ session in
                        try session.scalar(
                            Int64.self,
                            """
                            SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
                            ELSE pg_current_wal_insert_lsn() END - '0/0'::pg_lsn)::bigint
                            """)
                    }) {
                        self.commits.withLock { commits in
                            if commits.walPosition != position {
                                commits.walPosition = position
                                commits.generation &+= 1
                            }
                        }
                    }
                    try? await Task.sleep(for: Self.watchInterval)
                }
            }
        }
    }

    /// Closes every connection and stops the store's threads.
    package func close() async {
        if let watch = watcher.withLock({ $0 }) {
            watch.cancel()
            _ = await watch.value
        }
        runner.cancel()
        _ = await runner.value
        try? await threads.shutdownGracefully()
    }

    /// Runs a transaction that writes, then moves ``generation`` for readers.
    package func write<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        let result = try await withSession(body)
        noteCommit()
        return result
    }

    /// ``write(_:)`` in a task of its own, then `completion` with the error, if any: for a caller that does not wait
    /// (the scheduler storing next due times).
    package func write(
        _ body: @escaping @Sendable (PostgresSession) throws -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        Task.detached {
            do {
                try await self.write(body)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Runs `body` on one of the store's threads with a connection of its own.
    package func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        let logger = logger
        let threads = threads
        return try await client.withConnection { connection in
            try await threads.runIfActive { try body(PostgresSession(connection: connection, logger: logger)) }
        }
    }

    /// The password for a URL without one: `file` (`password_file`), else the file
    /// `$CREDENTIALS_DIRECTORY/postgres-password` (systemd's `LoadCredential=postgres-password:…`), else libpq's
    /// `PGPASSWORD`. A file's first line is the password.
    ///
    /// - Throws: ``PostgresStoreError`` when `file` cannot be read, or is larger than ``maxPasswordFileBytes``: one
    ///   sentence naming it, never showing what it holds.
    package static func password(file: String? = nil, environment: [String: String]) throws -> String? {
        if let file {
            let bytes: [UInt8]
            do {
                bytes = try ConfigurationFile.readBytes(atPath: file, limit: maxPasswordFileBytes)
            } catch {
                throw PostgresStoreError("cannot read the password file \(file): \(error.reason)")
            }
            return firstLine(bytes)
        }
        if let directory = environment["CREDENTIALS_DIRECTORY"],
            let bytes = try? ConfigurationFile.readBytes(
                atPath: directory + "/postgres-password", limit: maxPasswordFileBytes)
        {
            return firstLine(bytes)
        }
        return environment["PGPASSWORD"]
    }

    /// The largest password file read.
    package static let maxPasswordFileBytes = 4096

    /// A password file's first line.
    private static func firstLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}

/// The store could not be opened: one sentence that names the database (without a password) and the cause.
package struct PostgresStoreError: Error, CustomStringConvertible {
    package var description: String

    init(location: PostgresLocation, _ error: any Error) {
        let cause: String
        if let error = error as? PSQLError {
            cause = error.serverInfo?[.message].map { "the server said: \($0)" } ?? "\(error.code)"
        } else {
            cause = "\(error)"
        }
        description = "cannot open the PostgreSQL store \(location.redacted): \(cause)"
    }

    init(_ description: String) {
        self.description = description
    }
}
