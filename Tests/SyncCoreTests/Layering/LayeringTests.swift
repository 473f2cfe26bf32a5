import Foundation
import Testing

/// SyncCore's folders depend one way only, lowest first: a folder's code may use names declared in folders below it,
/// never in a folder above it or beside it (README › Layout). The compiler sees one module, so this test enforces
/// the order by name: every type, function, constant and extension member declared at a folder's top level is owned
/// by that folder, and a use of it from a folder that may not see it fails here, naming the file and the name.
@Suite("SyncCore's layering")
struct LayeringTests {
    /// Each folder's rank: a folder may use folders of a lower rank only (so two folders of one rank never meet).
    static let ranks: [String: Int] = [
        // Below them all, modules of their own, which the compiler keeps from naming anything of SyncCore: SyncSupport
        // (calendar and HTTP dates, trimming, percent-decoding, durations, entity tags, byte sizes); above it
        // SyncSQLite (the SQLite wrapper, SQLite values only) and SyncDecoding (the record decoders); above them
        // SyncModel (the domain model — configuration, endpoints, columns, credentials, pagination, bounds — and the
        // TOML reader that fills it); above SyncModel SyncHTTP (fetching: transports, redirects, OAuth2 tokens, Retry-After
        // and RateLimit headers, page URLs); above it SyncIngest (from the fetch to the store: the spool, the feed,
        // the pipeline, the intake, the page probe); above it SyncPersistence (all SQL: tables, the atomic apply, reads,
        // changes, state); above it SyncRuntime (the engine: one run, and the scheduler).
        "Client": 7,  // typed fetches
        "Library": 8,  // the public front door
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/SyncCore")

    struct Use: Hashable, CustomStringConvertible {
        var folder: String
        var file: String
        var name: String
        var owner: String

        var description: String { "\(folder)/\(file) uses \(name) from \(owner)/" }
    }

    @Test("no folder uses a folder of its own rank or above it")
    func oneWay() throws {
        let files = try Self.files()
        #expect(Set(files.map(\.folder)) == Set(Self.ranks.keys), "a folder was added or removed: rank it here")
        let violations = Self.uses(in: files).filter { use in
            guard let user = Self.ranks[use.folder], let owner = Self.ranks[use.owner] else { return true }
            return owner >= user
        }
        #expect(violations.isEmpty, "\(violations.map(\.description).sorted().joined(separator: "\n"))")
    }

    @Test("the check sees uses: the typed client's names are used by the front door")
    func seesUses() throws {
        let uses = Self.uses(in: try Self.files())
        #expect(uses.contains { $0.name == "APIClient" && $0.owner == "Client" && $0.folder == "Library" })
    }

    @Test("the store takes records from the ingest room and never names where their bytes wait or how they arrive")
    func storageNeverNamesTheSpool() throws {
        let stores = try Self.moduleFiles("SyncPersistence") + Self.moduleFiles("SyncPostgres")
        let named = stores.flatMap { file in
            ["BodySpool", "SpoolFeed"].filter { file.text.contains($0) }.map {
                "\(file.folder)/\(file.name) names \($0)"
            }
        }
        #expect(named.isEmpty, "\(named.joined(separator: "\n"))")
        // The check sees the names where they are: the engine's run (SyncRuntime), which fetches into the ingest room
        // (SyncIngest, a module of its own, which the store needs for its records).
        #expect(try Self.moduleFiles("SyncRuntime").contains { $0.text.contains("SpoolFeed") })
        #expect(stores.contains { $0.folder == "SyncPersistence" && $0.text.contains("RecordPipeline") })
    }

    /// The modules whose string literals may hold SQL, of those SyncCore is built on and the façade itself: the
    /// store (the SyncSQLite module, below them all, too).
    static let sqlFolders: Set<String> = ["SyncPersistence"]

    @Test(
        "SQL is written in the SyncPersistence module only (and in SyncSQLite), never in the engine or the modules below"
    )
    func sqlInStore() throws {
        var outside: [String] = []
        var seen = Set<String>()
        var files = try Self.files(keepingStrings: true)
        for module in [
            "SyncSupport", "SyncDecoding", "SyncModel", "SyncHTTP", "SyncIngest", "SyncPersistence", "SyncRuntime",
        ] {
            files += try Self.moduleFiles(module, keepingStrings: true)
        }
        for file in files {
            let statements = Self.sqlLiterals(file.text)
            if !statements.isEmpty { seen.insert(file.folder) }
            if !statements.isEmpty, !Self.sqlFolders.contains(file.folder) {
                outside.append("\(file.folder)/\(file.name): \(statements[0])")
            }
        }
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
        #expect(seen.isSuperset(of: Self.sqlFolders), "the SQL check finds no SQL at all: \(seen)")
    }

    @Test("outside SyncCore, SQL is only `syncd sql`'s business: the read API and the commands go through the storage")
    func sqlOutsideSyncCore() throws {
        // `syncd sql` runs the operator's SQL; the demo prints example `syncd sql` commands.
        let allowed: Set<String> = ["SQLCommand.swift", "DemoCommand.swift"]
        var outside: [String] = []
        let files = try Self.filesOutsideSyncCore()
        for (path, text) in files where !allowed.contains((path as NSString).lastPathComponent) {
            if let first = Self.sqlLiterals(text).first { outside.append("\(path): \(first)") }
        }
        #expect(files.count > 20, "the check found too few files: \(files.count)")
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
    }

    @Test("the binary and the read API open the cache through SyncCache, the front door; none assembles an engine")
    func frontDoor() throws {
        // The names that would build the engine, the scheduler or a store beside SyncCache.
        let sideDoors = [
            ".openForWriting()", "openForReading(connections:", "SyncEngine(", "SyncScheduler(", "HTTPTransport(",
            "SQLiteSyncStorage(", "SQLiteReadStorage(",
        ]
        let files = try Self.filesOutsideSyncCore()
        let found = files.flatMap { path, text in sideDoors.filter { text.contains($0) }.map { "\(path) uses \($0)" } }
        #expect(files.count > 20, "the check found too few files: \(files.count)")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The Swift files of the targets built on SyncCore (`syncd`, SyncServe, SyncSystemd), comments removed, by path.
    static func filesOutsideSyncCore() throws -> [(path: String, text: String)] {
        let root = Self.sources.deletingLastPathComponent()
        var files: [(path: String, text: String)] = []
        for target in ["syncd", "SyncServe", "SyncSystemd"] {
            let folder = root.appendingPathComponent(target)
            guard let names = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let name as String in names where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8)
                files.append(("\(target)/\(name)", Self.withoutComments(text)))
            }
        }
        return files
    }

    /// The string literals that start an SQL statement (`"SELECT …"`, a multi-line literal whose first line does).
    static func sqlLiterals(_ text: String) -> [String] {
        let keywords =
            "SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|PRAGMA|WITH|BEGIN|COMMIT|ROLLBACK|SAVEPOINT"
        return matches(#"(?m)(?:"|""\"\n\s*)((?:"# + keywords + #")\s[^"\n]*)"#, text)
    }

    struct File {
        var folder: String
        var name: String
        var text: String
    }

    static func files(keepingStrings: Bool = false) throws -> [File] {
        var files: [File] = []
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: sources.path).sorted() {
            let path = sources.appendingPathComponent(folder).path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                !folder.hasSuffix(".docc")
            else { continue }
            for name in try manager.contentsOfDirectory(atPath: path).sorted() where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: path + "/" + name, encoding: .utf8)
                let kept = keepingStrings ? Self.withoutComments(text) : Self.code(text)
                files.append(File(folder: folder, name: name, text: kept))
            }
        }
        return files
    }

    /// The Swift files of one of the package's modules, with the module's name as their folder.
    static func moduleFiles(_ module: String, keepingStrings: Bool = false) throws -> [File] {
        let folder = sources.deletingLastPathComponent().appendingPathComponent(module)
        guard let paths = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [File] = []
        for case let path as String in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder.appendingPathComponent(path).path, encoding: .utf8)
            files.append(File(folder: module, name: path, text: keepingStrings ? withoutComments(text) : code(text)))
        }
        #expect(files.count > 5, "\(module) has too few files: \(files.count)")
        return files.sorted { $0.name < $1.name }
    }

    /// Every use of a name owned by another folder. Names declared in more than one folder are nobody's.
    static func uses(in files: [File]) -> Set<Use> {
        var owners: [String: Set<String>] = [:]
        var memberOwners: [String: Set<String>] = [:]
        for file in files {
            for name in topLevelNames(file.text) { owners[name, default: []].insert(file.folder) }
        }
        // The modules below SyncCore are the package's too: what SyncCore adds to their types (a configuration's
        // helpers) is named like any member, not like the few it adds to the standard library's.
        let ours = owners.merging(packageModuleTypes().map { ($0, []) }, uniquingKeysWith: { owners, _ in owners })
        for file in files {
            for name in externalMembers(file.text, known: ours) {
                memberOwners[name, default: []].insert(file.folder)
            }
        }
        var uses = Set<Use>()
        for file in files {
            for word in words(file.text) {
                if let folders = owners[word], folders.count == 1, let owner = folders.first, owner != file.folder {
                    uses.insert(Use(folder: file.folder, file: file.name, name: word, owner: owner))
                }
            }
            for member in members(file.text) {
                if let folders = memberOwners[member], folders.count == 1, let owner = folders.first,
                    owner != file.folder
                {
                    uses.insert(Use(folder: file.folder, file: file.name, name: "." + member, owner: owner))
                }
            }
        }
        return uses
    }

    static let modifiers =
        #"(?:@[\w.]+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated|static|mutating)\s+)*"#

    /// The types the package's modules below SyncCore declare at their top level.
    static func packageModuleTypes() -> Set<String> {
        let root = sources.deletingLastPathComponent()
        var names = Set<String>()
        for module in [
            "SyncSupport", "SyncSQLite", "SyncDecoding", "SyncModel", "SyncHTTP", "SyncIngest", "SyncPersistence",
            "SyncRuntime",
        ] {
            let folder = root.appendingPathComponent(module)
            guard let paths = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let path as String in paths where path.hasSuffix(".swift") {
                guard let text = try? String(contentsOfFile: folder.appendingPathComponent(path).path, encoding: .utf8)
                else { continue }
                names.formUnion(topLevelNames(code(text)))
            }
        }
        return names
    }

    /// Types, functions and constants declared at the top level (no indentation).
    static func topLevelNames(_ text: String) -> [String] {
        matches(
            #"(?m)^"# + modifiers + #"(?:struct|enum|class|actor|protocol|typealias|func|let|var)\s+([A-Za-z_]\w*)"#,
            text)
    }

    /// Members that a file adds to a type declared outside SyncCore (`extension Duration { var seconds … }`).
    static func externalMembers(_ text: String, known: [String: Set<String>]) -> [String] {
        var names: [String] = []
        let blocks = try? NSRegularExpression(
            pattern: #"(?ms)^"# + modifiers + #"extension\s+([A-Za-z_][\w.]*)[^{]*\{(.*?)^\}"#)
        let range = NSRange(text.startIndex..., in: text)
        for match in blocks?.matches(in: text, range: range) ?? [] {
            guard let typeRange = Range(match.range(at: 1), in: text),
                let bodyRange = Range(match.range(at: 2), in: text)
            else { continue }
            let type = String(text[typeRange].split(separator: ".").first ?? "")
            guard known[type] == nil else { continue }
            names += matches(#"(?m)^    "# + modifiers + #"(?:func|var|let)\s+([A-Za-z_]\w*)"#, String(text[bodyRange]))
        }
        return names
    }

    static func words(_ text: String) -> Set<String> { Set(matches(#"\b([A-Za-z_]\w*)\b"#, text)) }

    static func members(_ text: String) -> Set<String> { Set(matches(#"\.([A-Za-z_]\w*)\b"#, text)) }

    static func matches(_ pattern: String, _ text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The text without comments.
    static func withoutComments(_ text: String) -> String {
        replacing([#"//[^\n]*"#, #"(?s)/\*.*?\*/"#], in: text, with: "")
    }

    /// The text without comments and string literals, whose words are not uses.
    static func code(_ text: String) -> String {
        replacing(
            [##"(?s)#?""".*?"""#?"##, ##"#?"(?:\\.|[^"\\\n])*"#?"##], in: withoutComments(text), with: "\"\"")
    }

    static func replacing(_ patterns: [String], in text: String, with template: String) -> String {
        var text = text
        for pattern in patterns {
            text =
                (try? NSRegularExpression(pattern: pattern))?.stringByReplacingMatches(
                    in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template) ?? text
        }
        return text
    }
}
