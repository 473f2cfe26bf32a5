import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncModel

/// The configuration reference (`docs/reference/configuration.md`) against the parser: every key it documents is
/// one the parser takes, in the scope and with the kinds it says, with the default it says; the parser refuses
/// every key it does not document (the table is the parser's gate); and the page is the one the table makes.
@Suite("The configuration reference is the parser's table of keys")
struct ConfigurationReferenceTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let page = root + "/docs/reference/configuration.md"

    /// Two collection endpoints, "repos" and "things", with the same columns; `lines` replace or add to the keys
    /// of "things" (a key given replaces the base key of that name).
    static func endpoints(_ lines: [String] = []) -> String {
        let columns = #"columns = { id = "id", updated_at = { path = "updated_at", type = "timestamp" } }"#
        let base = [
            #"name = "things""#, #"url = "https://example.com/api/things""#, #"records = "data""#,
            #"primary_key = "id""#,
            columns,
        ]
        let given = Set(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" })
        let kept = base.filter { !given.contains(String($0.split(separator: " ")[0])) }
        return """
            [[endpoint]]
            name = "repos"
            url = "https://example.com/api/repos"
            records = "data"
            primary_key = "id"
            \(columns)

            [[endpoint]]
            \((kept + lines).joined(separator: "\n"))

            """
    }

    /// A whole file that sets `lines` (the example of a key, or that example without the key) in `scope`.
    static func file(_ lines: [String], in scope: ConfigurationScope) -> String {
        switch scope {
        case .root: return lines.joined(separator: "\n") + "\n\n" + endpoints()
        case .server, .cluster, .defaults:
            return lines.joined(separator: "\n") + "\n\n" + endpoints()
        case .endpoint:
            return endpoints(Array(lines.dropFirst()))  // the example's first line is [[endpoint]]
        case .column:
            let table = lines[1].dropFirst("city = ".count)
            return endpoints([
                #"columns = { id = "id", updated_at = { path = "updated_at", type = "timestamp" }, city = "#
                    + table + " }"
            ])
        default:
            return endpoints(Array(lines.dropFirst()))
        }
    }

    /// Parses `text` as `directory`/syncd.toml.
    static func parse(_ text: String, in directory: String) -> Result<SyncConfiguration, ConfigurationError> {
        Result { () throws(ConfigurationError) in
            try SyncConfiguration.parse(text, sourcePath: directory + "/syncd.toml")
        }
    }

    /// A folder holding the files the examples name: a CA, a client certificate and its key, a body.
    static func withFiles(_ body: (String) throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncd-ref-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }  // best effort: a leftover temp dir is harmless
        _ = try await PrivateCA.make(in: path)
        _ = try writeFile(#"{"query": "{ viewer { login } }"}"#, named: "query.json", in: path)
        try body(path)
    }

    static var allKeys: [(scope: ConfigurationScope, key: ConfigurationKey)] {
        ConfigurationScope.allCases.flatMap { scope in scope.keys.map { (scope, $0) } }
    }

    @Test("every key's example parses, in its scope, with no problem")
    func examplesParse() async throws {
        try await Self.withFiles { directory in
            for (scope, key) in Self.allKeys {
                let text = Self.file(ConfigurationReference.example(of: key, in: scope), in: scope)
                if case .failure(let error) = Self.parse(text, in: directory) {
                    Issue.record("\(scope.heading) \(key.name): \(error.problems.map(\.description))\n\(text)")
                }
            }
        }
    }

    @Test("an [[endpoint]] key works in [defaults] exactly when the reference says so")
    func defaultsScope() async throws {
        try await Self.withFiles { directory in
            for key in ConfigurationScope.endpoint.keys {
                let text =
                    (["[defaults]"] + key.with + ["\(key.name) = \(key.example)"]).joined(separator: "\n")
                    + "\n\n" + Self.endpoints()
                let result = Self.parse(text, in: directory)
                if key.inDefaults, case .failure(let error) = result {
                    Issue.record("\(key.name) in [defaults]: \(error.problems.map(\.description))")
                }
                if !key.inDefaults, case .success = result {
                    Issue.record("\(key.name) is accepted in [defaults], and the reference says it is not")
                }
            }
        }
    }

    @Test("a [defaults] key of the daemon's own is refused in [[endpoint]], as the reference says")
    func daemonKeys() {
        for key in ConfigurationScope.defaults.keys {
            let problems = configurationProblems(Self.endpoints(["\(key.name) = \(key.example)"]))
            #expect(problems.contains { $0.contains("\"\(key.name)\" is only valid in [defaults]") }, "\(problems)")
        }
    }

    @Test("a key is taken by the kinds the reference names, and refused as unknown by the others")
    func kinds() async throws {
        try await Self.withFiles { directory in
            for scope in ConfigurationScope.allCases where !scope.kindTables.isEmpty {
                let kindKey = scope == .webhook ? "signature" : "type"
                for key in scope.keys where key.name != kindKey {
                    for (kind, lines) in scope.kindTables {
                        let own = lines.filter { !$0.hasPrefix(key.name + " ") }
                        let table = (own + ["\(key.name) = \(key.example)"]).joined(separator: ", ")
                        let text = Self.endpoints(key.around + ["\(scope.tableKey ?? "") = { \(table) }"])
                        let problems: [String] =
                            switch Self.parse(text, in: directory) {
                            case .success: []
                            case .failure(let error): error.problems.map(\.description)
                            }
                        let unknown = problems.contains { $0.contains("unknown key \"\(key.name)\"") }
                        if unknown == (key.kinds?.contains(kind) ?? true) {
                            Issue.record("\(scope.tableKey ?? "") \(key.name) with \(kindKey) \(kind): \(problems)")
                        }
                    }
                }
            }
        }
    }

    @Test("a documented default is the parser's: setting it changes nothing")
    func defaults() async throws {
        try await Self.withFiles { directory in
            for (scope, key) in Self.allKeys {
                guard case .value(let value) = key.defaultValue else { continue }
                let documented = ConfigurationKey.key(
                    key.name, key.type, since: key.since, example: value, with: key.with, around: key.around, "")
                let set = ConfigurationReference.example(of: documented, in: scope)
                // The same lines without the key: a comment keeps every later line where it was.
                let unset = set.map { $0.replacing("\(key.name) = \(value)", with: "# unset") }
                    .map { $0.replacing(", # unset", with: "").replacing("{ # unset, ", with: "{ ") }
                    .map { $0.replacing("{ # unset }", with: "{ }") }
                let withKey = Self.parse(Self.file(set, in: scope), in: directory)
                let without = Self.parse(Self.file(unset, in: scope), in: directory)
                switch (withKey, without) {
                case (.success(let a), .success(let b)):
                    #expect(a == b, "\(scope.heading) \(key.name) = \(value) is not the parser's default")
                default:
                    Issue.record("\(scope.heading) \(key.name): \(withKey) / \(without)")
                }
            }
        }
    }

    @Test("the parser refuses, as unknown, a key the reference does not list, in every scope")
    func gate() {
        for scope in ConfigurationScope.allCases {
            #expect(!ConfigurationKeys.isKnown("undocumented_key", in: scope))
            for key in scope.keys { #expect(ConfigurationKeys.isKnown(key.name, in: scope)) }
        }
    }

    @Test("headings are unique, so every anchor is stable")
    func uniqueHeadings() {
        var seen: Set<String> = []
        for scope in ConfigurationScope.allCases {
            #expect(seen.insert(scope.heading.lowercased()).inserted, "\(scope.heading)")
            for key in scope.keys {
                let heading = ConfigurationReference.heading(of: key, in: scope)
                #expect(seen.insert(heading).inserted, "\(heading) is listed twice")
            }
        }
    }

    @Test("the refusal the page shows is the parser's")
    func refusal() {
        let problems = configurationProblems(
            ConfigurationUnknownKeyTests.misspeltInterval, sourcePath: "/etc/syncd/syncd.toml")
        #expect(problems.map { "syncd: " + $0 } == [ConfigurationReference.refusal])
    }

    @Test("every link within the page names one of its headings")
    func anchors() {
        let page = ConfigurationReference.markdown
        let headings = Set(
            page.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                ConfigurationReference.anchor(String($0.drop { $0 == "#" }.dropFirst()))
            })
        for link in page.split(separator: "](#").dropFirst() {
            let target = String(link.prefix { $0 != ")" })
            #expect(headings.contains(target), "#\(target) is no heading of the page")
        }
    }

    @Test("docs/reference/configuration.md is the page the table makes (SYNCD_UPDATE_REFERENCE=1 remakes it)")
    func pageIsCurrent() throws {
        let made = ConfigurationReference.markdown
        if ProcessInfo.processInfo.environment["SYNCD_UPDATE_REFERENCE"] == "1" {
            try FileManager.default.createDirectory(
                atPath: Self.root + "/docs/reference", withIntermediateDirectories: true)
            try Data(made.utf8).write(to: URL(fileURLWithPath: Self.page))
        }
        let committed = (try? String(contentsOfFile: Self.page, encoding: .utf8)) ?? ""
        guard committed != made else { return }
        // The first line that differs, rather than both pages whole.
        let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let new = made.split(separator: "\n", omittingEmptySubsequences: false)
        let common = min(old.count, new.count)
        let line = (0..<common).first { old[$0] != new[$0] } ?? common
        let shown = { (lines: [Substring]) in line < lines.count ? String(lines[line]) : "(the end)" }
        Issue.record(
            """
            docs/reference/configuration.md differs from the table of keys \
            (Sources/SyncModel/Config/ConfigurationKeys*.swift): remake it with \
            SYNCD_UPDATE_REFERENCE=1 swift test --filter ConfigurationReferenceTests
            line \(line + 1), committed: \(shown(old))
            line \(line + 1), made:      \(shown(new))
            """)
    }
}
