import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A sync cancelled mid-run (the daemon stopping past its grace period) records how it ended, in one sentence,
/// instead of failing to record it with `CancellationError()`.
@Suite("sync: cancelled runs")
struct CancelledSyncTests {
    @Test("cancelled while waiting to retry, the run is recorded as stopped, with no CancellationError in it")
    func cancelledDuringBackoff() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .json(Array("{}".utf8), status: 503) }
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(server.baseURL)/users"
                records = "$"
                primary_key = ["id"]
                retries = 1

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                """)
        let endpoint = try fixture.endpoint("users")
        var engine = fixture.engine
        // SIGTERM's grace period ends while the engine waits to retry: the task is cancelled there.
        engine.sleep = { _ in
            withUnsafeCurrentTask { $0?.cancel() }
            try Task.checkCancellation()
        }
        let report = await engine.sync(endpoint)
        try await server.shutdown()

        #expect(report.error == "users: stopped before the sync finished; kept the stored data")
        let runs = try fixture.rows("SELECT outcome, error FROM syncd_runs WHERE endpoint = 'users'")
        #expect(runs.count == 1)
        #expect(runs.first?.text("error") == "users: stopped before the sync finished; kept the stored data")
    }
}
