import Foundation
import SampleUpstream
import Synchronization
import Testing

/// A kill in the middle of a fan-out: the child table holds the previous run's rows or the new run's, never a mix.
@Suite("syncd crash safety: a fan-out killed mid-walk")
struct FanOutCrashTests {
    @Test("SIGKILL while the parents are walked leaves the previous children")
    func sigkillMidFanOut() async throws {
        let org = GitHubOrg(repositories: 3, issues: 2)
        let (asked, asking) = AsyncStream<Void>.makeStream()
        let watching = Mutex(false)
        let server = try await LoopbackHTTPServer.start { request in
            if request.path == "/repos/acme/repo-2/issues", watching.withLock({ $0 }) { asking.yield() }
            return org.answer(request)
        }
        let workspace = try CLITests.Workspace(toml: FanOutCLITests.toml(server.baseURL))
        defer { workspace.remove() }
        let first = try await workspace.run(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        for repository in 1...3 { org.addIssue(to: repository) }
        let parents = try await workspace.run(["sync", "repos"])
        #expect(parents.status == 0)
        watching.withLock { $0 = true }

        let pid = ProcessID()
        let config = workspace.config
        let result = try await withThrowingTaskGroup(of: SyncdProcess.Result.self) { group in
            group.addTask {
                let result = try await SyncdProcess.run(["sync", "issues", "--config", config]) { started in
                    pid.value.withLock { $0 = started }
                }
                // A run that ends without asking for repo-2's issues is not killed.
                asking.finish()
                return result
            }
            for await _ in asked {
                kill(pid.value.withLock { $0 }, SIGKILL)
                break
            }
            guard let result = try await group.next() else { throw CancellationError() }
            return result
        }
        try await server.shutdown()
        #expect(result.status == 0 || result.status == SIGKILL)

        let state = try await workspace.run([
            "sql",
            "SELECT version, record_count, (SELECT count(*) FROM issues) AS n FROM syncd_endpoints WHERE name = 'issues'",
            "--format", "csv",
        ])
        let fields = state.standardOutput.split(separator: "\r\n").last?.split(separator: ",").map(String.init) ?? []
        #expect(fields == ["1", "6", "6"] || fields == ["2", "9", "9"], "\(state.standardOutput)")
    }
}

/// The pid of the process under test, shared with the task that started it.
private final class ProcessID: Sendable {
    let value = Mutex<Int32>(0)
}
