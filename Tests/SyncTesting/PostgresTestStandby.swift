import Foundation
import Synchronization

/// A hot standby of the test cluster, streaming from it: `pg_basebackup -R` into a folder of its own, then a server
/// on another free loopback port. Every database of the cluster is on it, those made later too (their creation
/// replicates). It stops when the test process ends, as the cluster does.
package final class PostgresTestStandby: Sendable {
    package let port: Int
    private let primaryPort: Int
    private let keeper: ServerKeeper

    /// The standby, started on first use, after the cluster (on a thread of its own: see
    /// ``ServerKeeper/once(_:thread:_:)``).
    package static func shared() async throws -> PostgresTestStandby {
        let primary = try await PostgresTestCluster.shared()
        return try await ServerKeeper.once(started, thread: "syncd-tests-postgres-standby") {
            try PostgresTestStandby(primary: primary)
        }
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
        keeper = try ServerKeeper(
            script: script, arguments: [folder, "\(port)", "\(primary.port)"], cleanup: "rm -rf \(folder)"
        ) {
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            let backup = (try? String(contentsOfFile: "\(folder)/basebackup.log", encoding: .utf8)) ?? ""
            return PostgresTestCluster.ClusterError("the standby did not start: \(backup) \(log)")
        }
    }
}
