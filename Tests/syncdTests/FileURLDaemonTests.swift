import Foundation
import Testing

/// A `file://` URL naming something other than a regular file once hung the sync, and with it the daemon's shutdown.
@Suite("syncd run: file:// URLs")
struct FileURLDaemonTests {
    @Test("a FIFO as a file:// URL fails its run at once, and SIGTERM still stops the daemon with exit 0")
    func fifo() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let fifo = workspace.path + "/users.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        try """
        database = "cache.db"

        [server]
        listen = "off"

        [[endpoint]]
        name = "users"
        url = "file://\(fifo)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let failed = await notify.waitFor("is not a regular file")
            #expect(failed.contains { $0.contains("STATUS=users:") })
            signal(SIGTERM)
            _ = await notify.waitFor("STOPPING=1")
        }
        #expect(result.status == 0, "\(result.standardError)")
    }
}
