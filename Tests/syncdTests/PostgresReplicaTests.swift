import Foundation
import SampleUpstream
import SyncTesting
import Testing

/// `[server] read_database`: the read API of `syncd run` reads a hot standby of the database (the test cluster's
/// own, made with `pg_basebackup`), while the syncs write the primary.
@Suite("syncd run reading a PostgreSQL streaming replica", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresReplicaTests {
    @Test("the read API serves what the standby replayed, with the primary's ETags; its connections are the standby's")
    func readsFromStandby() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let standby = try await PostgresTestStandby.shared()
        let database = try await cluster.makeDatabase()
        let replica = standby.url(of: database) + "&application_name=syncd-replica-reader"
        // The standby has the new database once it replayed its creation.
        let created = ContinuousClock.now + .seconds(60)
        while (try? await cluster.query(standby.url(of: database), "SELECT 1")) == nil, ContinuousClock.now < created {
            try await Task.sleep(for: .milliseconds(50))
        }
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = PostgresCLITests.toml(database: database, baseURL: server.baseURL)
            .replacingOccurrences(
                of: "[server]\n", with: "[server]\nread_database = \"\(replica)\"\n")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            // Replication is asynchronous: the standby has the sync once it replayed it.
            let replayed = try await cluster.waitFor(
                standby.url(of: database), "SELECT count(*) FROM syncd_endpoints WHERE version > 0", toBe: "2",
                until: .now + .seconds(60))
            #expect(replayed)
            try await ReadAPIDaemonTests.readWithCurl(workspace, at: address)
            let readers = try await cluster.query(
                standby.url(of: database),
                "SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'syncd-replica-reader'")
            #expect(readers == [["true"]])
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("read_database with an SQLite database is refused with one sentence, before anything starts")
    func sqliteRefused() async throws {
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml("http://127.0.0.1:1").replacingOccurrences(
                of: "[server]\n",
                with: "[server]\nread_database = \"postgresql://syncd@127.0.0.1:1/cache\"\n"))
        defer { workspace.remove() }
        let result = try await workspace.run(["run"])
        #expect(result.status == 78)
        #expect(
            result.standardError.hasPrefix(
                "syncd: [server] read_database names a replica of a PostgreSQL database, and the database is the SQLite file "
            ), "\(result.standardError)")
    }

    @Test("a read_database that is not a PostgreSQL URL is a configuration error naming the line")
    func notAURL() async throws {
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml("http://127.0.0.1:1").replacingOccurrences(
                of: "[server]\n", with: "[server]\nread_database = \"replica.db\"\n"))
        defer { workspace.remove() }
        let result = try await workspace.run(["check-config"])
        #expect(result.status == 78)
        #expect(
            result.standardError.contains(
                "syncd.toml:4: [server]: read_database must be a postgresql:// URL: a streaming replica of the database"
            ),
            "\(result.standardError)")
    }
}
