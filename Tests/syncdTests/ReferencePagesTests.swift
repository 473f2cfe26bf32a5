import ArgumentParser
import Foundation
import SampleUpstream
import Testing

@testable import syncd

/// The reference pages in `docs/reference/` say what the code says of itself, so they cannot drift: the commands from
/// the argument parser, the exit codes from `--help` and the code's `ExitCode`s, the routes from a live daemon's
/// `/openapi.json`, and the metrics from its `/metrics`. A page that differs fails here; rewrite the generated parts
/// with `SYNCD_UPDATE_REFERENCE=1 swift test --filter ReferencePages`.
@Suite("ReferencePages: docs/reference says what the code says")
struct ReferencePagesTests {
    @Test("cli.md has every command, argument, option, default and help text of the argument parser")
    func cliPage() async throws {
        let info = try await ReferenceCLIMarkdown.toolInfo()
        #expect(info.serializationVersion == 0, "the dump's format changed: check ReferenceCLIMarkdown.ToolInfo")
        let markdown = ReferenceCLIMarkdown.markdown(info)
        for command in info.command.subcommands ?? [] {
            #expect(markdown.contains("## syncd \(command.commandName)\n"), "\(command.commandName)")
        }
        try ReferencePage("docs/reference/cli.md").check(["commands": markdown])
    }

    @Test("exit-codes.md lists every exit status: those --help documents, which are those the code defines")
    func exitCodesPage() async throws {
        let info = try await ReferenceCLIMarkdown.toolInfo()
        let documented = ReferenceExitCodes.documented(info.command.discussion ?? "")
        let defined = try ReferenceExitCodes.defined()
        #expect(!documented.isEmpty, "--help's discussion has no \"Exit codes:\" block")
        #expect(
            Set(documented.map(\.code)) == Set(defined.keys),
            "--help documents \(documented.map(\.code)); the code defines \(defined.keys.sorted())")
        // The names the table gives are the code's own constants.
        #expect(ExitCode.refused.rawValue == 2 && ExitCode.notModified.rawValue == 3)
        #expect(ExitCode.notFound.rawValue == 4 && ExitCode.usage.rawValue == 64)
        #expect(ExitCode.configurationInvalid.rawValue == 78 && ExitCode.validationFailure.rawValue == 64)
        let page = try ReferencePage("docs/reference/exit-codes.md")
        try page.check(["exit-codes": ReferenceExitCodes.markdown(documented, names: defined)])
        // Each status has its own section of prose too.
        for (code, _) in documented {
            #expect(page.text.contains("\n## \(code):"), "exit-codes.md has no section \"## \(code): …\"")
        }
    }

    @Test("http.md has every route of /openapi.json, and metrics.md every metric of /metrics, from a live syncd run")
    func httpAndMetricsPages() async throws {
        let upstream = DemoUpstream(userCount: 4)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let secret = workspace.path + "/hook.secret"
        try "reference\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try ReferenceHTTPMarkdown.configuration(server.baseURL, secretFile: secret).write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        var openAPI = Data()
        var metrics = ""
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let document = try await SyncdProcess.shell("curl -sS --fail http://\(address)/openapi.json")
            #expect(document.status == 0, "\(document.standardError)")
            openAPI = Data(document.standardOutput.utf8)
            let scrape = try await SyncdProcess.shell("curl -sS --fail http://\(address)/metrics")
            #expect(scrape.status == 0, "\(scrape.standardError)")
            metrics = scrape.standardOutput
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        try ReferencePage("docs/reference/http.md").check(["routes": try ReferenceHTTPMarkdown.markdown(openAPI)])
        try ReferenceMetrics.check(scrape: metrics, page: try ReferencePage("docs/reference/metrics.md"))
    }
}

/// The exit statuses: as `syncd --help` documents them, and as the code defines them.
enum ReferenceExitCodes {
    /// The `Exit codes:` block of the root command's discussion: `  64  usage: …` lines.
    static func documented(_ discussion: String) -> [(code: Int32, meaning: String)] {
        guard let start = discussion.range(of: "Exit codes:\n") else { return [] }
        var codes: [(code: Int32, meaning: String)] = []
        for line in discussion[start.upperBound...].split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("  "), let space = words.firstIndex(of: " "), let code = Int32(words[..<space])
            else { break }
            codes.append((code, words[space...].trimmingCharacters(in: .whitespaces)))
        }
        return codes
    }

    /// Every status the code can exit with, and the names it gives it: the `ExitCode(n)` constants of
    /// `Sources/syncd`, and the argument parser's success, failure and usage error.
    static func defined() throws -> [Int32: [String]] {
        var names: [Int32: [String]] = [0: ["success"], 1: ["failure"], 64: ["validationFailure"]]
        let folder = ReferencePage.root.appendingPathComponent("Sources/syncd")
        guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return names }
        for case let file as String in walk where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /static let (\w+) = ExitCode\((\d+)\)/) {
                guard let code = Int32(match.2) else { continue }
                names[code, default: []].insert(String(match.1), at: 0)
            }
            // A status made in place, `ExitCode(5)` outside a constant, is one too.
            for match in text.matches(of: /[^=] ExitCode\((\d+)\)/) {
                guard let code = Int32(match.1), names[code] == nil else { continue }
                names[code] = []
            }
        }
        return names
    }

    /// The page's table: the status, what `--help` says of it, and the code's names for it.
    static func markdown(_ documented: [(code: Int32, meaning: String)], names: [Int32: [String]]) -> String {
        var lines = ["| Status | Meaning (as `syncd --help` says) | In the code |", "|---|---|---|"]
        for (code, meaning) in documented {
            let spelled = (names[code] ?? []).map { "`ExitCode.\($0)`" }.joined(separator: ", ")
            lines.append("| \(code) | \(MarkdownText.escaped(meaning)) | \(spelled) |")
        }
        return lines.joined(separator: "\n")
    }
}
