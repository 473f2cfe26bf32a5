import Foundation
import SampleUpstream
import Synchronization
import Testing

/// Data safety: whatever moment a sync is killed at, the database holds the old set or the new one.
@Suite("syncd crash safety")
struct CrashSafetyTests {
    static func ids(_ json: [UInt8]) throws -> [Int] {
        let array = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]]
        return (array ?? []).compactMap { $0["id"] as? Int }.sorted()
    }

    @Test("SIGKILL during a sync leaves a consistent database: the old set or the new, never a mix")
    func sigkill() async throws {
        let count = 5_000
        let generation = Mutex(0)
        let (served, serving) = AsyncStream<Void>.makeStream()
        let server = try await LoopbackHTTPServer.start { request in
            let current = generation.withLock { $0 }
            if current == 1 { serving.yield() }
            return .json(
                SampleUsers.json(count: count, generation: current), headers: [(name: "ETag", value: "\"g\(current)\"")]
            )
        }
        let workspace = try CLITests.Workspace(toml: CLITests.toml(server.baseURL))
        defer { workspace.remove() }
        let first = try await workspace.run(["sync", "users"])
        #expect(first.status == 0)
        generation.withLock { $0 = 1 }

        let pid = Mutex<Int32>(0)
        async let killed: SyncdProcess.Result = SyncdProcess.run(["sync", "users", "--config", workspace.config]) {
            started in
            pid.withLock { $0 = started }
        }
        for await _ in served { break }
        kill(pid.withLock { $0 }, SIGKILL)
        let result = try await killed
        try await server.shutdown()
        #expect(result.status == 0 || result.status == SIGKILL)

        let check = try await workspace.run(["sql", "PRAGMA integrity_check", "--format", "csv"])
        #expect(check.standardOutput == "integrity_check\r\nok\r\n")
        let state = try await workspace.run([
            "sql",
            "SELECT version, record_count, (SELECT count(*) FROM users) AS n, (SELECT max(_version) FROM users) AS v FROM syncd_endpoints WHERE name = 'users'",
            "--format", "csv",
        ])
        let fields = state.standardOutput.split(separator: "\r\n").last?.split(separator: ",").map(String.init) ?? []
        #expect(fields.count == 4)
        let version = Int(fields.first ?? "") ?? -1
        #expect(version == 1 || version == 2)
        #expect(fields[safe: 1] == fields[safe: 2], "record_count matches the rows")
        #expect(fields[safe: 3] == String(version), "no row is newer than the endpoint")
        let stored = try await workspace.run(["sql", "SELECT id FROM users ORDER BY id", "--format", "csv"])
        let storedIDs = stored.standardOutput.split(separator: "\r\n").dropFirst().compactMap { Int($0) }
        #expect(storedIDs == (try Self.ids(SampleUsers.json(count: count, generation: version - 1))))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
