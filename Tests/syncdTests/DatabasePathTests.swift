import Foundation
import Testing

/// `--database` and `database` are plain paths: never an SQLite URI, never an in-memory database.
@Suite("syncd: database paths")
struct DatabasePathTests {
    @Test(
        "a --database that looks like an SQLite URI or :memory: is a file of exactly that name",
        arguments: ["file:x.db?nolock=1", "file:x.db?mode=memory&cache=shared", ":memory:"])
    func plainPath(name: String) async throws {
        let workspace = try CLITests.Workspace(toml: CLITests.toml("http://127.0.0.1:9"))
        defer { workspace.remove() }
        let migrate = try await SyncdProcess.run(
            ["migrate", "--database", name, "--config", workspace.config], directory: workspace.path)
        #expect(migrate.status == 0, "\(migrate.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.path)
        #expect(files.contains(name), "\(files)")
        #expect(!files.contains("x.db") && !files.contains("cache.db"), "\(files)")
        let status = try await SyncdProcess.run(
            [
                "sql", "SELECT count(*) AS n FROM syncd_endpoints", "--format", "csv", "--database", name,
                "--config", workspace.config,
            ],
            directory: workspace.path)
        #expect(status.status == 0 && status.standardOutput == "n\r\n0\r\n", "\(status.standardError)")
    }
}
