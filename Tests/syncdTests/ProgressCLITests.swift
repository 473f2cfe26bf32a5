import Foundation
import SampleUpstream
import Testing

/// `syncd sync`'s live lines: on a terminal (a pseudo-terminal from script(1)), a line per running endpoint redrawn
/// in place and replaced by its summary; with NO_COLOR or TERM=dumb, and off a terminal, what it printed before.
@Suite("syncd sync: progress people can see")
struct ProgressCLITests {
    /// The environment of a syncd that believes it draws on an xterm, whatever the test runner's says.
    static func terminalEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        environment["SYNCD_LOG_LEVEL"] = nil
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// `syncd sync` under script(1), its terminal's output in a pipe this test reads as it comes.
    static func syncOnTerminal(_ workspace: CLITests.Workspace, environment: [String: String]) throws -> ChildProcess {
        try ChildProcess.spawn(
            "/usr/bin/script", ["-qfec", "\(SyncdProcess.binary.path) sync --config \(workspace.config)", "/dev/null"],
            environment: environment, standardOutput: .pipe)
    }

    /// Reads `child`'s output, on a thread of its own, until `done` holds for all of it read so far (`before`
    /// included) or the output ends.
    static func read(
        _ child: ChildProcess, after before: [UInt8] = [],
        until done: @escaping @Sendable (String) -> Bool = { _ in false }
    ) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes = before
                while true {
                    let chunk = child.readOutput(upTo: 65_536)
                    if chunk.isEmpty { break }
                    bytes += chunk
                    if done(String(decoding: bytes, as: UTF8.self)) { break }
                }
                continuation.resume(returning: bytes)
            }
        }
    }

    static let shownLine = "items: 1 page, 2 of 4 records, "
    static let summary = "4 records (4 inserted, 0 updated, 0 deleted, 0 rejected) → version 1"

    @Test("on a terminal, a running endpoint's line shows pages, records of the total, bytes, rate and time left")
    func liveLine() async throws {
        try await GatedUpstream.withWorkspace { upstream, workspace in
            let child = try Self.syncOnTerminal(workspace, environment: Self.terminalEnvironment())
            await upstream.secondPageAsked()
            // While page 2 is held: the line of page 1, drawn within the redraw interval.
            // A whole line: the terminal ends it with "\r\n", one Character, so the last byte is what is compared.
            let shown = await Self.read(child) { $0.contains(Self.shownLine) && $0.utf8.last == UInt8(ascii: "\n") }
            let text = String(decoding: shown, as: UTF8.self)
            let line = try #require(
                text.components(separatedBy: .newlines).last { $0.contains(Self.shownLine) }, "\(text.debugDescription)"
            )
            #expect(
                line.wholeMatch(of: /items: 1 page, 2 of 4 records, [0-9]+ B, [0-9]+ records\/s, about [0-9a-z]+ left/)
                    != nil, "\(line.debugDescription)")
            upstream.open()
            let all = await Self.read(child, after: shown)
            let status = await child.wait()
            #expect(status == 0)
            let output = String(decoding: all, as: UTF8.self)
            // Redrawn in place: the cursor goes up over the lines drawn and erases them, before the summary.
            #expect(output.contains("\u{1B}[1A\u{1B}[J\r"), "\(output.debugDescription)")
            let lines = output.components(separatedBy: .newlines).filter { !$0.isEmpty }
            let last = try #require(lines.last)
            #expect(last.hasPrefix("items: 200, ") && last.hasSuffix(Self.summary), "\(output.debugDescription)")
            // Cleared at the end: after the last erase, no live line is left on the screen.
            let afterErase = output.components(separatedBy: "\u{1B}[J").last ?? ""
            #expect(!afterErase.contains("items: 1 page") && !afterErase.contains("records/s"), "\(afterErase)")
        }
    }

    @Test(
        "with NO_COLOR or TERM=dumb, a terminal gets the summary lines and not a single escape sequence",
        arguments: [["NO_COLOR": "1"], ["TERM": "dumb"]])
    func noLiveLines(environment: [String: String]) async throws {
        try await GatedUpstream.withWorkspace(open: true) { _, workspace in
            let child = try Self.syncOnTerminal(workspace, environment: Self.terminalEnvironment(environment))
            let output = String(decoding: await Self.read(child), as: UTF8.self)
            #expect(await child.wait() == 0)
            #expect(!output.contains("\u{1B}"), "\(output.debugDescription)")
            let lines = output.components(separatedBy: .newlines).filter { !$0.isEmpty }
            #expect(lines.count == 1 && lines[0].hasPrefix("items: 200, ") && lines[0].hasSuffix(Self.summary))
        }
    }

    @Test("off a terminal, a paged sync prints nothing at all, as before the live lines")
    func offTerminal() async throws {
        try await GatedUpstream.withWorkspace(open: true) { _, workspace in
            let sync = try await SyncdProcess.run(
                ["sync", "--config", workspace.config], environment: ["TERM": "xterm-256color"])
            #expect(sync.status == 0)
            #expect(sync.standardOutput == "" && sync.standardError == "", "\(sync.standardError)")
            let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM items", "--format", "csv"])
            #expect(count.standardOutput == "n\r\n4\r\n", "\(count.standardError)")
        }
    }
}
