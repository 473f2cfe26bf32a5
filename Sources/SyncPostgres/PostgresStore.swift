internal import Foundation
package import Logging
internal import NIOCore
internal import NIOPosix
internal import NIOSSL
package import PostgresNIO
package import SyncCore
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
        // One connection first, made once: a server that is not there, or refuses, fails the open at once with its
        // reason (the pool would keep trying). It migrates, then closes.
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try connectionConfiguration(location, password: password), id: 0, logger: logger)
            do {
                let threads = NIOThreadPool(numberOfThreads: 1)
                threads.start()
                defer { threads.shutdownGracefully { _ in } }
                try await threads.runIfActive {
                    try PostgresMigrator(migrations: PostgresMigrations.all).migrate(
                        PostgresSession(connection: connection, logger: logger))
                }
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw PostgresStoreError(location: location, error)
        }
        return PostgresStore(location, password: password, connections: connections, logger: logger)
    }

    /// ``open(_:password:connections:logger:)`` for a caller that is not async (``Storage``'s openers): it waits on
    /// this thread, which must not be an event loop's.
    package static func openWaiting(
        _ location: PostgresLocation, password: String?, connections: Int = 8, logger: Logger
    ) throws -> PostgresStore {
        do {
            let connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(),
                configuration: try connectionConfiguration(location, password: password), id: 0, logger: logger
            ).wait()
            defer { try? connection.close().wait() }
            try PostgresMigrator(migrations: PostgresMigrations.all).migrate(
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
        runner = Task { await client.run() }
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

    /// Runs `body` on one of the store's threads with a connection of its own.
    package func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        let logger = logger
        let threads = threads
        return try await client.withConnection { connection in
            try await threads.runIfActive { try body(PostgresSession(connection: connection, logger: logger)) }
        }
    }

    /// The password for a URL without one: the file `$CREDENTIALS_DIRECTORY/postgres-password` (systemd's
    /// `LoadCredential=postgres-password:…`), else libpq's `PGPASSWORD`.
    package static func password(environment: [String: String]) -> String? {
        if let directory = environment["CREDENTIALS_DIRECTORY"],
            let text = try? String(contentsOfFile: directory + "/postgres-password", encoding: .utf8)
        {
            return text.trimmingCharacters(in: .newlines)
        }
        return environment["PGPASSWORD"]
    }
}

/// One leased connection, used from one of ``PostgresStore``'s threads: each statement waits for its answer.
package struct PostgresSession {
    package let connection: PostgresConnection
    let logger: Logger

    /// A statement's rows, all of them, and how many rows it changed (its command tag's count).
    package struct Result {
        package var rows: [PostgresRandomAccessRow]
        package var affected: Int
    }

    /// Runs one statement with `binds` for `$1`, `$2`…
    @discardableResult
    package func query(_ sql: String, _ binds: [PostgresValue] = []) throws -> Result {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds { value.append(to: &bindings) }
        return try query(PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    package func query(_ query: PostgresQuery) throws -> Result {
        let result = try connection.query(query, logger: logger).wait()
        return Result(rows: result.rows.map { $0.makeRandomAccess() }, affected: result.metadata.rows ?? 0)
    }

    /// The first column of the first row, when there is one and it is not NULL.
    package func scalar<T: PostgresDecodable>(_ type: T.Type, _ sql: String, _ binds: [PostgresValue] = []) throws
        -> T? where T._DecodableType == T
    {
        guard let row = try query(sql, binds).rows.first else { return nil }
        return try row[0].decode(T?.self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ isolation: String = "READ COMMITTED", _ body: () throws -> T) throws -> T {
        try query("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}

/// A value bound to a statement's `$n`.
package enum PostgresValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes(ByteBuffer)

    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .null: bindings.appendNull()
        case .integer(let value): bindings.append(value)
        case .real(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .bytes(let value): bindings.append(value)
        }
    }
}

extension PostgresValue {
    package init(_ value: ColumnValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }

    /// `value` as a column of `type` holds it: PostgreSQL's columns take one type each, where SQLite's affinity took
    /// what came (an integer in a REAL column, say).
    package init(_ value: ColumnValue, as type: ColumnType) {
        switch (type, value) {
        case (_, .null): self = .null
        case (.real, .integer(let integer)): self = .real(Double(integer))
        case (.integer, .real(let real)), (.boolean, .real(let real)):
            self = Int64(exactly: real).map(PostgresValue.integer) ?? .null
        case (.integer, .text), (.boolean, .text), (.real, .text): self = .null
        case (.text, .integer), (.json, .integer), (.timestamp, .integer): self = .text(value.jsonLiteral)
        case (.text, .real), (.json, .real), (.timestamp, .real): self = .text(value.jsonLiteral)
        default: self.init(value)
        }
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

/// Applies migrations/postgres/ to a database, as ``Migrator`` does for SQLite: each in its transaction, recorded
/// in syncd_migrations with its checksum; a database newer than this binary, or with an edited migration, is
/// refused. Nodes that start together migrate one at a time (a transaction-scoped advisory lock).
struct PostgresMigrator {
    var migrations: [Migrator.Migration]

    /// The advisory lock key: "syncd" in ASCII.
    static let lockKey: Int64 = 0x73_79_6e_63_64

    func migrate(_ session: PostgresSession) throws {
        try session.transaction {
            try session.query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            try session.query(
                """
                CREATE TABLE IF NOT EXISTS syncd_migrations (
                    version    INTEGER PRIMARY KEY NOT NULL,
                    name       TEXT NOT NULL,
                    checksum   TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                        DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                )
                """)
            let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
            var applied: Set<Int> = []
            for row in try session.query("SELECT version, checksum FROM syncd_migrations").rows {
                let version = Int(try row[0].decode(Int32.self))
                guard let migration = known[version] else {
                    throw PostgresStoreError(
                        "the database was written by a newer syncd (it has migration \(version), this binary knows up "
                            + "to \(migrations.last?.version ?? 0)); upgrade syncd")
                }
                guard try row[1].decode(String.self) == migration.checksum else {
                    throw PostgresStoreError(
                        "migration \(migration.version) (\(migration.name)) applied to the database differs from this "
                            + "binary's: it was edited after it shipped")
                }
                applied.insert(version)
            }
            for migration in migrations where !applied.contains(migration.version) {
                // One statement at a time: PostgresNIO's extended protocol takes one per message.
                for statement in Self.statements(migration.sql) { try session.query(statement) }
                try session.query(
                    "INSERT INTO syncd_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum)])
            }
        }
    }
}

extension PostgresMigrator {
    /// The statements of a migration file, split at each `;` outside a string, a quoted name or a comment (the
    /// migrations hold no dollar-quoted bodies). Comments are dropped; empty statements too.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current: [UInt8] = []
        var quote: UInt8?
        var inComment = false
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inComment {
                if byte == UInt8(ascii: "\n") {
                    inComment = false
                    current.append(byte)
                }
                continue
            }
            if let open = quote {
                current.append(byte)
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                quote = byte
                current.append(byte)
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                inComment = true
            case UInt8(ascii: ";"):
                statements.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            default:
                current.append(byte)
            }
        }
        statements.append(String(decoding: current, as: UTF8.self))
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

extension PostgresValue {
    /// A cell as read back: integers, floating-point numbers, bytes and text (anything else as its text).
    init(cell: PostgresCell) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int8, .int4, .int2: self = (try? cell.decode(Int64.self)).map(PostgresValue.integer) ?? .null
        case .float8, .float4: self = (try? cell.decode(Double.self)).map(PostgresValue.real) ?? .null
        case .bytea: self = (try? cell.decode(ByteBuffer.self)).map(PostgresValue.bytes) ?? .null
        default: self = (try? cell.decode(String.self)).map(PostgresValue.text) ?? .null
        }
    }
}
