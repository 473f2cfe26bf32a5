import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` binaries, `initdb` into a temporary folder as
/// the unprivileged `postgres` user, listening on 127.0.0.1 on a free port. One cluster serves the whole test process
/// (it starts in about a second); each test takes a database of its own from ``makeDatabase()``.
///
/// The cluster stops when the test process ends, however it ends: it runs under a shell that waits on a pipe from
/// this process, and stops the server (`pg_ctl stop -m fast`) and removes the folder when the pipe closes.
package final class PostgresTestCluster: Sendable {
    /// Whether the tests that need PostgreSQL run: when its binaries are installed, and always in CI (`CI` set), so
    /// that a CI machine without them fails instead of skipping.
    package static let isAvailable = binDirectory != nil || ProcessInfo.processInfo.environment["CI"] != nil

    /// The cluster, started on first use (on a thread of its own: see ``ServerKeeper/once(_:thread:_:)``).
    package static func shared() async throws -> PostgresTestCluster {
        try await ServerKeeper.once(started, thread: "syncd-tests-postgres") { try PostgresTestCluster() }
    }

    private static let started = Mutex<Task<PostgresTestCluster, any Error>?>(nil)
    private static let databaseCounter = Mutex(0)

    /// The folder of `initdb` and `pg_ctl`: /usr/lib/postgresql/VERSION/bin, the newest installed.
    package static var binDirectory: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap({ Int($0) }).max() else { return nil }
        let bin = "\(root)/\(newest)/bin"
        return FileManager.default.isExecutableFile(atPath: "\(bin)/initdb") ? bin : nil
    }

    /// The one user that must give a password (scram-sha-256); every other is trusted. Tests of `password_file` make it
    /// (``makePasswordUser(owning:password:)``).
    package static let passwordUser = "syncd_password"

    package let port: Int
    package let folder: String
    private let keeper: ServerKeeper

    private init() throws {
        guard let bin = Self.binDirectory else {
            throw ClusterError("PostgreSQL is not installed: apt-get install postgresql (the tests start their own)")
        }
        // initdb refuses to run as root, and the postgres user must reach the folder: 0755, owned by it.
        var template = Array("/tmp/syncd-postgres-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError("cannot make a temporary folder") }
        folder = String(cString: made)
        chmod(folder, 0o755)
        port = try Self.freePort()
        let script = """
            set -e
            cd "$0"
            \(bin)/initdb --no-locale -E UTF8 --auth=trust -U postgres -D "$0/data" >"$0/initdb.log" 2>&1
            sed -i "1i host all \(Self.passwordUser) 127.0.0.1/32 scram-sha-256" "$0/data/pg_hba.conf"
            \(bin)/pg_ctl -D "$0/data" -l "$0/server.log" -w -o "-p $1 -k $0 -c listen_addresses=127.0.0.1 \
            -c fsync=off -c max_connections=200" start >/dev/null
            echo ready
            read -r _ || true
            \(bin)/pg_ctl -D "$0/data" -m fast stop >/dev/null 2>&1 || true
            """
        let folder = folder
        keeper = try ServerKeeper(
            script: script, arguments: [folder, "\(port)"], before: "chown postgres: \(folder)",
            cleanup: "rm -rf \(folder)"
        ) {
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            let initdb = (try? String(contentsOfFile: "\(folder)/initdb.log", encoding: .utf8)) ?? ""
            return ClusterError("the test cluster did not start: \(initdb) \(log)")
        }
    }

    /// A new, empty database in the cluster, and its URL (`postgresql://postgres@127.0.0.1:PORT/NAME`).
    package func makeDatabase() async throws -> String {
        let name = Self.databaseCounter.withLock { counter in
            counter += 1
            return "test_\(getpid())_\(counter)"
        }
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: "127.0.0.1", port: port, username: "postgres", password: nil,
                database: "postgres", tls: .disable),
            id: 1, logger: Logger(label: "syncd.tests.postgres"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Self.logger)
        return "postgresql://postgres@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Makes ``passwordUser`` with `password` (once per cluster; again, its password changes) the owner of the
    /// database at `url`, and returns that URL for it, without the password.
    package func makePasswordUser(owning url: String, password: String) async throws -> String {
        let name = url.split(separator: "/").last?.split(separator: "?").first.map(String.init) ?? ""
        _ = try await query(
            url,
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(Self.passwordUser)') THEN
                    CREATE ROLE \(Self.passwordUser) LOGIN;
                END IF;
            END $$
            """)
        _ = try await query(url, "ALTER ROLE \(Self.passwordUser) PASSWORD '\(password)'")
        _ = try await query(url, "ALTER DATABASE \(name) OWNER TO \(Self.passwordUser)")
        return url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://\(Self.passwordUser)@")
    }

    private static let logger = Logger(label: "syncd.tests.postgres")

    /// A port nothing listens on now: bound with port 0, read back, closed.
    package static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ClusterError("socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw ClusterError("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    package struct ClusterError: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}

extension FileHandle {
    /// One line read up to its newline, byte by byte (without the newline); nil at the end before any byte.
    package func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

extension PostgresTestCluster {
    /// The port of a URL of ``makeDatabase()``'s, or of ``PostgresTestStandby/url(of:)``'s.
    package static func port(in url: String) -> Int? {
        guard let host = url.range(of: "@127.0.0.1:") else { return nil }
        return Int(url[host.upperBound...].prefix { $0.isNumber })
    }

    /// Runs `sql` in the database at `url` (one of ``makeDatabase()``'s) and returns its rows, each value as text
    /// (nil for NULL).
    package func query(_ url: String, _ sql: String) async throws -> [[String?]] {
        guard let connection = try await connect(url, id: 2) else { return [] }
        do {
            var rows: [[String?]] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger) {
                rows.append(row.map(Self.text))
            }
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs `sql` in the database at `url` again and again, on one connection, until its first value is `expected`
    /// or `deadline` passes: whether it was seen.
    package func waitFor(_ url: String, _ sql: String, toBe expected: String, until deadline: ContinuousClock.Instant)
        async throws -> Bool
    {
        guard let connection = try await connect(url, id: 3) else { return false }
        defer { Task { try? await connection.close() } }
        while ContinuousClock.now < deadline {
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger) {
                if row.first.flatMap(Self.text) == expected { return true }
            }
        }
        return false
    }

    /// A connection as `postgres` to the database of `url` (on the cluster, or on its standby); nil for a URL that
    /// names none.
    private func connect(_ url: String, id: Int) async throws -> PostgresConnection? {
        guard let name = url.split(separator: "/").last?.split(separator: "?").first else { return nil }
        return try await PostgresConnection.connect(
            configuration: .init(
                host: "127.0.0.1", port: Self.port(in: url) ?? port, username: "postgres", password: nil,
                database: String(name), tls: .disable),
            id: id, logger: Self.logger)
    }

    /// A cell as text, whatever its type (PostgresNIO reads results in binary).
    private static func text(_ cell: PostgresCell) -> String? {
        guard cell.bytes != nil else { return nil }
        if let integer = try? cell.decode(Int64.self) { return String(integer) }
        if let real = try? cell.decode(Double.self) { return String(real) }
        if let bool = try? cell.decode(Bool.self) { return String(bool) }
        return try? cell.decode(String.self)
    }
}
