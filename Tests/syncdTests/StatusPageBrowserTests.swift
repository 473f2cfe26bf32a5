import Foundation
import SampleUpstream
import Testing

/// The status page as a person sees it: `syncd run` serves it, headless Chromium (Debian's `chromium`) loads it,
/// and the test reads what Chromium rendered and keeps screenshots (in `SYNCD_TEST_ARTIFACTS` when set: CI keeps
/// that folder).
@Suite("syncd run: the status page in a browser")
struct StatusPageBrowserTests {
    /// Whether `chromium` is on PATH. In CI (`CI` set) the test runs whatever this says, and fails without it.
    static let hasChromium: Bool = {
        let check = try? ChildProcess.spawn("/bin/sh", ["-c", "command -v chromium >/dev/null 2>&1"])
        return check?.waitBlocking() == 0
    }()

    /// Chromium headless as root: its own profile, no sandbox (root has none), nothing fetched but the page.
    static func chromium(_ arguments: String, profile: String) async throws -> SyncdProcess.Result {
        try await SyncdProcess.shell(
            "timeout 120 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir='\(profile)' "
                + "--no-first-run --no-default-browser-check --disable-background-networking "
                + "--disable-component-update --disable-sync --disable-extensions --hide-scrollbars "
                + "\(arguments) 2>/dev/null")
    }

    /// The width and height in a PNG's header, when the bytes are a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func number(_ start: Int) -> Int { bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test(
        "headless Chromium renders every endpoint's row and state, the charts and a running sync's line; screenshots",
        .enabled(
            if: hasChromium || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs Debian's chromium on PATH (apt-get install chromium); CI installs it"))
    func browser() async throws {
        let upstream = DemoUpstream(userCount: 12)
        // `items` holds its second page until the page was read: its sync is running meanwhile.
        let gated = GatedUpstream()
        let server = try await LoopbackHTTPServer.start { request in
            if request.path == "/items" { return await gated.handle(request) }
            guard request.path == "/broken" else { return upstream.handle(request) }
            return .json(Array(#"{"error": "the upstream is down"}"#.utf8), status: 500)
        }
        let items = GatedUpstream.toml(server.baseURL).components(separatedBy: "[[endpoint]]").last ?? ""
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml(server.baseURL) + """

                [[endpoint]]
                name = "broken"
                url = "\(server.baseURL)/broken"
                records = "$"
                primary_key = ["id"]
                retries = 0
                [endpoint.columns]
                id = { path = "id", type = "integer" }

                [[endpoint]]
                """ + items)
        defer { workspace.remove() }
        let artifacts =
            ProcessInfo.processInfo.environment["SYNCD_TEST_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? workspace.path
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            // Each sync's report comes as a STATUS line: once all three came, every run is recorded.
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200", "STATUS=broken:")
            await gated.secondPageAsked()
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let url = "http://\(address)/"
            let profile = workspace.path + "/chromium-profile"

            let dump = try await Self.chromium("--dump-dom '\(url)'", profile: profile)
            #expect(dump.status == 0, "chromium --dump-dom failed")
            let dom = dump.standardOutput
            #expect(dom.contains(#"data-endpoint="users" data-state="fresh""#), "\(dom.prefix(2000))")
            #expect(dom.contains(#"data-endpoint="flags" data-state="fresh""#))
            #expect(dom.contains(#"data-endpoint="broken" data-state="failing""#))
            #expect(dom.contains(#"<span class="code c5">500</span>"#))
            #expect(dom.contains("HTTP 500 Internal Server Error"))
            #expect(dom.contains(#"<td data-label="Records" class="num">12</td>"#))
            #expect(dom.components(separatedBy: #"<svg class="chart""#).count - 1 == 3, "a chart per endpoint")
            #expect(dom.contains("<b>2</b> fresh") && dom.contains("<b>1</b> failing"))
            // The running sync's line, under its row.
            let running = dom.components(separatedBy: #"<tr class="running-row">"#).dropFirst().first ?? ""
            #expect(running.contains("syncing, started <time datetime="), "\(dom.prefix(3000))")
            #expect(running.contains(": 1 page, 2 of 4 records, "), "\(running.prefix(500))")

            for (name, size) in [("status-page-desktop.png", (1280, 900)), ("status-page-phone.png", (390, 844))] {
                let path = artifacts + "/" + name
                try? FileManager.default.removeItem(atPath: path)  // a file from an earlier run would pass the test
                let shot = try await Self.chromium(
                    "--window-size=\(size.0),\(size.1) --screenshot='\(path)' '\(url)'", profile: profile)
                #expect(shot.status == 0, "chromium --screenshot failed")
                let png = try Data(contentsOf: URL(fileURLWithPath: path))
                let dimensions = try #require(Self.pngSize(png), "\(path) is not a PNG")
                #expect(dimensions == size, "\(name)")
                #expect(png.count > 10_000, "\(name): \(png.count) bytes is a blank page")
                print("status page screenshot: \(path)")
            }
            gated.open()  // the daemon stops once the sync ends
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }
}
