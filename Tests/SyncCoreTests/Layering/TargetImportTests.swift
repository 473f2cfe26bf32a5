import Foundation
import Testing

/// Every target imports only the targets of this package that Package.swift declares as its dependencies: the walls
/// between SyncCore's modules are the manifest's, not whatever happens to be built first.
///
/// CI also builds with SwiftPM's `--explicit-target-dependency-import-check error`, but that check accepts a target
/// reached through another dependency (SyncServe importing SyncSQLite, which it reaches through SyncCore), so this
/// test reads the manifest and the sources itself and asks for every import to be declared.
@Suite("Package.swift: each target imports only the targets it declares")
struct TargetImportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of Package.swift with their folders and the names of the package's targets they depend on (the
    /// quoted names outside `.product(…)`).
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let starts = manifest.ranges(of: /\.(target|testTarget|executableTarget|systemLibrary|plugin)\(/)
        var targets: [Target] = []
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].lowerBound : manifest.endIndex
            let block = String(manifest[start.lowerBound..<end])
            guard let name = block.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            let isTest = block.hasPrefix(".testTarget(")
            let path =
                block.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) }
                ?? (isTest ? "Tests/\(name)" : "Sources/\(name)")
            var dependencies = Set<String>()
            if let list = block.firstMatch(of: /dependencies: \[((?:[^\[\]]|\[[^\]]*\])*)\]/)?.1 {
                let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
                for match in withoutProducts.matches(of: /"([^"]+)"/) { dependencies.insert(String(match.1)) }
            }
            targets.append(Target(name: String(name), path: path, dependencies: dependencies))
        }
        return targets
    }

    /// The modules a target's Swift files import.
    static func imports(of target: Target) throws -> [(file: String, module: String)] {
        let folder = root.appendingPathComponent(target.path)
        guard let names = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(file: String, module: String)] = []
        for case let name as String in names where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            // Line by line, not a regular expression over the whole file: Swift's Regex would keep a thread of the
            // suite busy for seconds over a thousand files.
            for line in text.split(separator: "\n") where line.first != " " && line.contains("import ") {
                var words = line.split(separator: " ")[...]
                while words.first?.hasPrefix("@") == true { words = words.dropFirst() }
                if let first = words.first, ["public", "package", "internal"].contains(first) {
                    words = words.dropFirst()
                }
                guard words.count >= 2, words.first == "import", let module = words.dropFirst().first else { continue }
                found.append((file: "\(target.path)/\(name)", module: String(module)))
            }
        }
        return found
    }

    @Test("no target imports a target of the package it does not declare")
    func declaredImports() throws {
        let targets = try Self.targets()
        let names = Set(targets.map(\.name))
        #expect(
            names.isSuperset(of: ["SyncSupport", "SyncSQLite", "SyncDecoding", "SyncCore", "syncd", "SyncCoreTests"]))
        var undeclared: [String] = []
        var seen = 0
        for target in targets {
            for (file, module) in try Self.imports(of: target) where names.contains(module) && module != target.name {
                seen += 1
                if !target.dependencies.contains(module) { undeclared.append("\(file) imports \(module)") }
            }
        }
        #expect(seen > 100, "the check found too few imports of the package's targets: \(seen)")
        #expect(undeclared.isEmpty, "\(Set(undeclared).sorted().joined(separator: "\n"))")
    }

    @Test(
        "the check reads the manifest: SyncCore depends on SyncSQLite and SyncDecoding, SyncSupport on nothing of ours")
    func readsTheManifest() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
        #expect(
            targets["SyncCore"]?.dependencies.isSuperset(of: ["SyncSupport", "SyncSQLite", "SyncDecoding"]) == true)
        #expect(targets["SyncSupport"]?.dependencies.isEmpty == true)
        #expect(targets["FuzzTargets"]?.path == "Fuzz/Sources/FuzzTargets")
        #expect(targets["syncd"]?.dependencies.contains("ArgumentParser") == false, "a product is not a target")
    }

    @Test("every module has a test target of its own, which the shared helpers reach through SyncTesting")
    func testTargetPerModule() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
        let modules = [
            "SyncSupport", "SyncSQLite", "SyncDecoding", "SyncModel", "SyncHTTP", "SyncIngest", "SyncPersistence",
            "SyncRuntime", "SyncCore", "SyncServe", "SyncSystemd", "SyncInfer", "SyncPostgres", "SampleUpstream",
            "syncd",
        ]
        for module in modules {
            let tests = targets[module + "Tests"]
            #expect(tests != nil, "\(module) has no test target \(module)Tests")
            #expect(tests?.dependencies.contains(module) == true, "\(module)Tests does not depend on \(module)")
        }
        // SyncTesting is what HummingbirdTesting is to Hummingbird: a library target, built on the package API, never
        // on a module's internals.
        let helpers = try Self.imports(of: try #require(targets["SyncTesting"]))
        #expect(helpers.contains { $0.module == "SyncCore" })
        let folder = Self.root.appendingPathComponent("Tests/SyncTesting")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "the check found too few files in SyncTesting: \(files.count)")
        let testable = try files.filter { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).contains("@testable import")
        }
        #expect(testable.isEmpty, "SyncTesting uses the package API, not @testable imports: \(testable.sorted())")
    }
}
