import ArgumentParser
import SyncSupport
import Testing

@testable import syncd

/// `ShortCommandLine` reads the usual forms of `--version`, `get` and `query` without the argument parser: each line
/// it reads must come out as the parser reads it, and every other line must go to the parser.
@Suite("ShortCommandLine: the usual short command lines, read as the parser reads them")
struct ShortCommandLineTests {
    @Test(
        "a get line is read as the parser reads it",
        arguments: [
            ["get", "users", "42"], ["get", "users", "42", "--config", "a.toml"],
            ["get", "--config", "a.toml", "users", "42", "--database", "b.db"],
            ["get", "flags"], ["get", "users", "1,2", "--if-none-match", "\"x.1\""], ["get", "users", ""],
            ["get", "--database", "/tmp/c.db", "users", "7", "--config", "/etc/syncd/syncd.toml"],
        ])
    func get(_ arguments: [String]) throws {
        let parsed = try #require(try Syncd.parseAsRoot(arguments) as? GetCommand)
        #expect(ShortCommandLine(arguments) == .get(parsed.request))
    }

    @Test(
        "a query line is read as the parser reads it",
        arguments: [
            ["query", "users"], ["query", "users", "--limit", "10"], ["query", "users", "--limit", "+3"],
            ["query", "users", "--where", "city=Oslo", "--where", "active=1", "--order", "id.desc.nullslast"],
            ["query", "--format", "json", "users", "--config", "a.toml", "--database", "b.db", "--limit", "0"],
            ["query", "users", "--format", "csv", "--order", "name"], ["query", "users", "--where", "a="],
        ])
    func query(_ arguments: [String]) throws {
        let parsed = try #require(try Syncd.parseAsRoot(arguments) as? QueryCommand)
        #expect(ShortCommandLine(arguments) == .query(parsed.request))
    }

    @Test("--version alone is read here")
    func version() {
        #expect(ShortCommandLine(["--version"]) == .version)
    }

    @Test(
        "every other line goes to the parser",
        arguments: [
            [], ["--help"], ["get"], ["get", "--help"], ["get", "users", "1", "2"], ["get", "users", "-1"],
            ["get", "users", "1", "--max-age", "5m"], ["get", "users", "--config=a.toml"], ["get", "--", "users"],
            ["get", "users", "--config"], ["get", "users", "--config", "a", "--config", "b"],
            ["get", "users", "--database", "-x"], ["get", "-h"], ["query"], ["query", "a", "b"],
            ["query", "users", "--limit", "-1"], ["query", "users", "--limit", "ten"],
            ["query", "users", "--format", "xml"], ["query", "users", "--where", "nocolumn"],
            ["query", "users", "--order", "id.sideways"], ["query", "users", "--limit", "1", "--limit", "2"],
            ["query", "users", "--if-none-match", "x"], ["status"], ["sync", "users"], ["--version", "get"],
            ["run"], ["version"],
        ])
    func others(_ arguments: [String]) {
        #expect(ShortCommandLine(arguments) == nil)
    }

    /// Lines made of the words these commands take, and of words that trip a reader (`-x`, `--`, `=`, an empty
    /// word), in random orders: each line `ShortCommandLine` reads, the parser reads the same (a fixed seed, so a
    /// failure comes back the same).
    @Test("random lines: whatever is read here, the parser reads alike")
    func randomLines() throws {
        let words = [
            "get", "query", "users", "42", "1,2", "", "--config", "a.toml", "--database", "b.db", "--if-none-match",
            "\"t.1\"", "--where", "city=Oslo", "a=", "nocolumn", "--order", "id.desc", "name.sideways", "--limit", "10",
            "-1", "+3", "ten", "--format", "json", "csv", "xml", "--", "-x", "--config=a.toml", "--max-age", "5m",
            "--help", "--version", "status",
        ]
        var random = SplitMix64(seed: 45)
        var readHere = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...7, using: &random)
            var line = (0..<count).map { _ in words.randomElement(using: &random) ?? "" }
            if Bool.random(using: &random) { line[0] = Bool.random(using: &random) ? "get" : "query" }
            guard let short = ShortCommandLine(line) else { continue }
            readHere += 1
            // The parser answers --version by throwing its request to print the version.
            if short == .version {
                #expect(line == ["--version"])
                continue
            }
            let parsed: any ParsableCommand
            do { parsed = try Syncd.parseAsRoot(line) } catch {
                Issue.record("\(line): the parser refused it: \(error)"); continue
            }
            switch short {
            case .get(let request): #expect((parsed as? GetCommand)?.request == request, "\(line)")
            case .query(let request): #expect((parsed as? QueryCommand)?.request == request, "\(line)")
            case .version: break
            }
        }
        #expect(readHere > 100, "the lines exercised the short reader (\(readHere) of 3,000)")
    }
}
