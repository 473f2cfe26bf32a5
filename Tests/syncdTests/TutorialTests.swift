import Foundation
import Testing

/// docs/tutorial.md, "Cache an API in ten minutes", followed as a reader follows it: every command of the page runs
/// in order against the built binaries, and prints what the page shows (``TutorialSession`` says what is rewritten
/// for a test machine, and ``TutorialOutput`` what may differ from run to run).
@Suite("docs/tutorial.md")
struct TutorialTests {
    @Test("the page's steps are the ones the test knows how to follow")
    func pageParses() throws {
        let page = try TutorialPage.load()
        var files: [String] = []
        var started: [Int] = []
        var stopped: [Int] = []
        var commands = 0
        for step in page.steps {
            switch step {
            case .commands: commands += 1
            case .file(_, let name, _): files.append(name)
            case .keepsRunning(_, let terminal, _, _): started.append(terminal)
            case .interrupt(_, let terminal): stopped.append(terminal)
            }
        }
        #expect(files == ["syncd.toml"])
        #expect(started.sorted() == stopped.sorted(), "every terminal the page starts, it stops")
        #expect(commands >= 10)
    }

    @Test("a page that shows other output, or an unknown block, fails")
    func mismatchesFail() throws {
        let output = TutorialPage.Output(line: 1, lines: ["users: 304 not modified, 300 records, version 1"])
        let same = TutorialOutput.compare(["users: 304 not modified, 300 records, version 1"], with: output)
        #expect((try? same.get()) != nil)
        let other = TutorialOutput.compare(["users: 304 not modified, 301 records, version 1"], with: output)
        #expect((try? other.get()) == nil)
        #expect(throws: TutorialPage.ParseError.self) { try TutorialPage.parse("```python\nprint(1)\n```\n") }
        #expect(throws: TutorialPage.ParseError.self) { try TutorialPage.parse("text\n\n```text\nhello\n```\n") }
    }

    @Test("times, countdowns, ETags and ports may differ; versions and everything else may not")
    func variableParts() throws {
        let pattern = TutorialOutput.pattern(#"ETag: "c43aa7a3522687af.1" at 127.0.0.1:8787, Age: 1, ttl=62"#)
        let captures = try #require(pattern.match(#"ETag: "0123456789abcdef.1" at 127.0.0.1:40123, Age: 0, ttl=-3"#))
        #expect(
            captures == [
                .etag(page: "c43aa7a3522687af", actual: "0123456789abcdef"), .port(page: "8787", actual: "40123"),
            ])
        #expect(pattern.match(#"ETag: "0123456789abcdef.2" at 127.0.0.1:40123, Age: 0, ttl=-3"#) == nil)
        let time = TutorialOutput.pattern("2026-12-07T22:00:32Z info syncd: Started config=syncd.toml endpoints=1")
        #expect(time.match("2027-01-01T00:00:00Z info syncd: Started config=syncd.toml endpoints=1") != nil)
        #expect(time.match("2027-01-01T00:00:00Z info syncd: Started config=syncd.toml endpoints=2") == nil)
        // What a terminal adds: carriage returns, curl's bold header names, an erased progress line.
        #expect(
            TutorialOutput.lines("\u{1B}[1mETag\u{1B}[0m: x\r\n\u{1B}[1A\u{1B}[J\rusers: 304\r\n\r\n") == [
                "ETag: x", "users: 304",
            ])
    }

    @Test(
        "every command of the tutorial runs and prints what the page shows",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
                || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs script (util-linux) and curl; in CI it runs, and fails without them"))
    func followTheTutorial() async throws {
        let page = try TutorialPage.load()
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        try FileManager.default.removeItem(atPath: workspace.config)  // the reader writes their own
        let session = try TutorialSession(scratch: workspace.path)
        do {
            for step in page.steps {
                try await session.run(step)
            }
        } catch {
            Issue.record("\(error)\n\(session.transcript)")
        }
        await session.finish()
    }
}
