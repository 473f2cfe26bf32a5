import Foundation
import SampleUpstream
import Testing

/// The daemon's running syncs, shown while they run: the `running` object of `/v1/endpoints` and the status page's
/// running line (which StatusPageBrowserTests also sees rendered in headless Chromium), from the daemon's memory; and
/// `syncd status`' running columns, from the file the daemon publishes in its state folder once a second — the
/// daemon's own file, whose writes and removal the test awaits as inotify events (``DirectoryWatch``: polling for it
/// took, under a full suite's load, the cores other daemons' tests needed), and a file the test writes for the stale
/// cases — which is gone once the daemon stopped.
@Suite("syncd run: running syncs in status, /v1/endpoints and the status page")
struct RunningSyncsDaemonTests {
    @Test(
        "while a sync waits for its second page, /v1/endpoints and the status page show its first; afterwards neither does"
    )
    func running() async throws {
        try await GatedUpstream.withWorkspace { upstream, workspace in
            let published = workspace.path + "/syncd-running.json"
            let result = try await DaemonProcess.run(workspace) { notify, signal in
                let messages = await notify.waitFor("READY=1")
                let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
                await upstream.secondPageAsked()

                // The read API reads the running sync from the daemon's memory: page 1 is counted before page 2 is asked.
                let list = try await SyncdProcess.shell("curl -sS http://\(address)/v1/endpoints")
                let endpoints = try #require(
                    try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
                let running = try #require(endpoints.first?["running"] as? [String: Any], "\(list.standardOutput)")
                #expect(running["pages"] as? Int == 1 && running["records"] as? Int == 2, "\(running)")
                #expect(running["total_records"] as? Int == 4 && (running["bytes"] as? Int ?? 0) > 0, "\(running)")
                #expect(running["parents_done"] is NSNull && running["total_pages"] is NSNull, "\(running)")
                #expect((running["since"] as? String)?.hasSuffix("Z") == true, "\(running)")
                // The OpenAPI document describes exactly these fields.
                let document = try await SyncdProcess.shell("curl -sS http://\(address)/openapi.json")
                let openAPI = try JSONSerialization.jsonObject(with: Data(document.standardOutput.utf8))
                let schemas = (openAPI as? [String: Any])?["components"] as? [String: Any]
                let schema = (schemas?["schemas"] as? [String: Any])?["RunningSync"] as? [String: Any]
                let required = try #require(schema?["required"] as? [String], "\(document.standardOutput.prefix(500))")
                #expect(Set(required) == Set(running.keys))
                let page = try await SyncdProcess.shell("curl -sS -H 'Accept: text/html' http://\(address)/")
                #expect(page.standardOutput.contains("<tr class=\"running-row\">"), "\(page.standardOutput)")
                #expect(page.standardOutput.contains(": 1 page, 2 of 4 records, "), "\(page.standardOutput)")

                upstream.open()
                _ = await notify.waitFor("STATUS=items: 200")
                let after = try await SyncdProcess.shell("curl -sS http://\(address)/v1/endpoints")
                #expect(!after.standardOutput.contains("\"running\""), "\(after.standardOutput)")
                signal(SIGTERM)
            }
            #expect(result.status == 0, "\(result.standardError)")
            // Stopped: nothing is left that says a sync runs.
            #expect(!FileManager.default.fileExists(atPath: published))
            let status = try await workspace.run(["status", "--format", "csv"])
            #expect(status.status == 0 && !status.standardOutput.contains("running_"), "\(status.standardOutput)")
        }
    }

    @Test(
        "while the daemon's sync is held, syncd status (a process) shows it running from the daemon's own file; after, not"
    )
    func statusWhileHeld() async throws {
        try await GatedUpstream.withWorkspace { upstream, workspace in
            let name = "syncd-running.json"
            // Watched before the daemon starts: every write of the file is an event the test awaits, none is missed.
            let watch = try DirectoryWatch(workspace.path)
            defer { watch.stop() }
            var changes = watch.changes.makeAsyncIterator()
            let result = try await DaemonProcess.run(workspace) { notify, signal in
                _ = await notify.waitFor("READY=1")
                await upstream.secondPageAsked()
                // The daemon rewrites the file once a second while the sync runs; once page 1 was counted (before
                // page 2 was asked), the next write holds it, and every later one until the gate opens.
                var pages: Int?
                while pages != 1 {
                    #expect(await changes.wait(for: .appeared(name)), "the daemon published no running sync")
                    pages = Self.publishedPages(workspace.path + "/" + name)
                }
                let status = try await workspace.run(["status", "--format", "csv"])
                let row = Self.row("items", in: status.standardOutput)
                #expect(row["running_pages"] == "1" && row["running_records"] == "2", "\(status.standardOutput)")
                #expect(row["running_since"]?.hasSuffix("Z") == true && row["running_parents"] == "")
                #expect(Int(row["running_bytes"] ?? "") ?? 0 > 0, "\(status.standardOutput)")

                upstream.open()
                _ = await notify.waitFor("STATUS=items: 200")
                // The first write after the sync ended removes the file.
                #expect(await changes.wait(for: .left(name)), "the daemon left its running syncs published")
                let after = try await workspace.run(["status", "--format", "csv"])
                #expect(!after.standardOutput.contains("running_"), "\(after.standardOutput)")
                #expect(Self.row("items", in: after.standardOutput)["records"] == "4", "\(after.standardOutput)")
                signal(SIGTERM)
            }
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    /// The pages of the one running sync the daemon's file holds; nil when it cannot be read (or holds another count).
    static func publishedPages(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path),
            let contents = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let running = contents["running"] as? [[String: Any]], running.count == 1
        else { return nil }
        return running[0]["pages"] as? Int
    }

    /// The cells of `endpoint`'s row of `status --format csv`'s output, by column (cells hold no comma here).
    static func row(_ endpoint: String, in csv: String) -> [String: String] {
        let lines = csv.components(separatedBy: "\r\n").map { $0.components(separatedBy: ",") }
        guard let header = lines.first, let row = lines.first(where: { $0.first == endpoint }) else { return [:] }
        return Dictionary(zip(header, row), uniquingKeysWith: { first, _ in first })
    }

    @Test("a published file whose daemon is gone, or that is stale, shows no running sync")
    func staleFile() async throws {
        let workspace = try CLITests.Workspace(toml: CLITests.toml("http://127.0.0.1:9"))
        defer { workspace.remove() }
        #expect(try await workspace.run(["migrate"]).status == 0)
        // Written just before each status: `age` seconds old for status, whatever time the test took so far.
        func publish(pid: Int32, age: Double) throws {
            let now = Date().timeIntervalSince1970
            let json =
                #"{"pid":\#(pid),"written_at":\#(now - age),"running":[{"endpoint":"users","started_at":\#(now),"#
                + #""pages":3,"bytes":10,"parents_done":2,"parents_total":7}]}"#
            try json.write(toFile: workspace.path + "/syncd-running.json", atomically: true, encoding: .utf8)
        }
        for (pid, age) in [(Int32.max - 1, 0.0), (getpid(), 60)] {
            try publish(pid: pid, age: age)
            let status = try await workspace.run(["status", "--format", "csv"])
            #expect(status.status == 0 && !status.standardOutput.contains("running_"), "\(status.standardOutput)")
        }
        // The same file, fresh and naming a live process (this one), is shown.
        try publish(pid: getpid(), age: 0)
        let status = try await workspace.run(["status", "--format", "csv"])
        #expect(status.standardOutput.contains(",3,,10,2/7\r\n"), "\(status.standardOutput)")
    }
}
