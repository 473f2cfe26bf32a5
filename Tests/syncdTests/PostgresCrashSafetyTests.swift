import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

/// Data safety on PostgreSQL: a sync killed in the middle of its transaction leaves the old set whole.
@Suite("syncd crash safety on PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresCrashSafetyTests {
    @Test("SIGKILL while a sync's transaction holds half the new rows: the old set stays, whole and alone")
    func sigkillMidTransaction() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let database = try await cluster.makeDatabase()
        let count = 5_000
        let generation = Mutex(0)
        let server = try await FaultServer.start { _ in
            let current = generation.withLock { $0 }
            let body = SampleUsers.json(count: count, generation: current)
            guard current == 1 else {
                return FaultAnswer.json(body, headers: [("ETag", "\"g\(current)\"")])
            }
            // The new set: its first 60% at once, then the rest a byte a second, so that the sync's transaction is
            // open, holding thousands of new rows, when it is killed.
            let split = body.count * 6 / 10
            return FaultAnswer(parts: [
                .bytes(
                    FaultAnswer.head(
                        status: 200,
                        headers: [
                            ("Content-Type", "application/json"), ("Content-Length", "\(body.count)"),
                            ("ETag", "\"g1\""),
                        ])),
                .bytes(Array(body[..<split])), .drip(Array(body[split...]), every: .seconds(1)),
            ])
        }
        let workspace = try CLITests.Workspace(
            toml: PostgresCLITests.toml(database: database, baseURL: server.baseURL))
        defer { workspace.remove() }
        let first = try await workspace.run(["sync", "users"])
        #expect(first.status == 0, "\(first.standardError)")
        generation.withLock { $0 = 1 }

        let pid = Mutex<Int32>(0)
        async let killed = SyncdProcess.run(["sync", "users", "--config", workspace.config]) { started in
            pid.withLock { $0 = started }
        }
        while pid.withLock({ $0 }) == 0 { await Task.yield() }
        // Waits (by asking PostgreSQL, not by the clock) for syncd's transaction to be open and waiting for bytes,
        // then kills it at once. A transaction that waits a second for the network in all gives way (SpoolFeed), so
        // the watch runs as a process of its own, which the system schedules whatever the test's own tasks wait
        // for: on a loaded machine, a poll from the test's task pool could miss that second.
        let watch = try await SyncdProcess.shell(
            """
            for attempt in $(seq 1 3000); do
              open=$(psql -Atq '\(database)' -c "SELECT count(*) FROM pg_stat_activity \
                WHERE datname = current_database() AND application_name = 'syncd' \
                AND state = 'idle in transaction' AND backend_xid IS NOT NULL")
              if [ "$open" = 1 ]; then kill -KILL \(pid.withLock { $0 }); echo open; exit 0; fi
            done
            kill -KILL \(pid.withLock { $0 }); echo never
            """)
        #expect(watch.standardOutput == "open\n", "syncd's transaction was never seen open: \(watch.standardError)")
        let result = try await killed
        #expect(result.status == SIGKILL || result.status == 128 + SIGKILL || result.status == 9)
        try await server.shutdown()

        let state = try await cluster.query(
            database,
            """
            SELECT version, record_count, (SELECT count(*) FROM users), (SELECT max("_version") FROM users)
            FROM syncd_endpoints WHERE name = 'users'
            """)
        #expect(state == [["1", "\(count)", "\(count)", "1"]])
        let names = try await cluster.query(database, #"SELECT "_raw" FROM users ORDER BY id LIMIT 1"#)
        let expected = try JSONSerialization.jsonObject(with: Data(SampleUsers.json(count: count, generation: 0)))
        let firstName = ((expected as? [[String: Any]])?.first?["name"] as? String) ?? "?"
        #expect(names.first?.first??.contains(firstName) == true)
    }
}
