import Foundation
import Synchronization

/// A hot standby of the test cluster, streaming from it: `pg_basebackup -R` into a folder of its own, then a server
/// on another free loopback port. Every database of the cluster is on it, those made later too (their creation
/// replicates). It stops when the test process ends, as the cluster does.
package final class PostgresTestStandby: Sendable {
    package let port: Int
    private let primaryPort: Int
    private let keeper: Process
    private let lifeline: FileHandle

    /// The standby, started on first use (after the cluster), on a thread of its own while callers suspend.
    package static func shared() async throws -> PostgresTestStandby {
        let primary = try await PostgresTestCluster.shared()
        let start = started.withLock { start in
            if let start { return start }
            let new = Task<PostgresTestStandby, any Error> {
                try await withCheckedThrowingContinuation { continuation in
                    let thread = Thread {
                        continuation.resume(with: Result { try PostgresTestStandby(primary: primary) })
                    }
                    thread.name = "syncd-tests-postgres-standby"
                    thread.start()
                }
            }
            start = new
            return new
        }
        return try await start.value
    }

    private static let started = Mutex<Task<PostgresTestStandby, any Error>?>(nil)

    /// `url` (one of the cluster's) with the standby's port: the same database, read from the standby.
    package func url(of url: String) -> String {
        url.replacingOccurrences(of: "127.0.0.1:\(primaryPort)/", with: "127.0.0.1:\(port)/")
    }

    private init(primary: PostgresTestCluster) throws {
        guard let bin = PostgresTestCluster.binDirectory else {
            throw PostgresTestCluster.ClusterError("PostgreSQL is not installed")
        }
        let folder = primary.folder + "-standby"
        port = try PostgresTestCluster.freePort()
        primaryPort = primary.port
        // A hot standby needs max_connections at least the primary's (200).
        let script = """
            set -e
            mkdir -m 0700 "$0"
            \(bin)/pg_basebackup -h 127.0.0.1 -p $2 -U postgres -D "$0/data" -R -X stream -c fast >"$0/basebackup.log" 2>&1
            \(bin)/pg_ctl -D "$0/data" -l "$0/server.log" -w -o "-p $1 -k $0 -c listen_addresses=127.0.0.1 \
            -c hot_standby=on -c max_connections=200" start >/dev/null
            echo ready
            read -r _ || true
            \(bin)/pg_ctl -D "$0/data" -m fast stop >/dev/null 2>&1 || true
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "runuser -u postgres -- /bin/sh -c '\(script)' \(folder) \(port) \(primary.port); rm -rf \(folder)",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        keeper = process
        lifeline = input.fileHandleForWriting
        guard output.fileHandleForReading.readLine() == "ready" else {
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            let backup = (try? String(contentsOfFile: "\(folder)/basebackup.log", encoding: .utf8)) ?? ""
            throw PostgresTestCluster.ClusterError("the standby did not start: \(backup) \(log)")
        }
    }
}
