import Foundation
import Testing

/// The code linked into syncd imports FoundationEssentials, never all of Foundation: a use of NSString, NSCondition,
/// JSONSerialization or `String(format:)` would link Foundation's CoreFoundation and ICU's 34 MB of data, and make every
/// process start slower (issue 45). With FoundationEssentials imported, such a use does not compile; this test keeps a
/// new file from importing Foundation itself.
@Suite("Sources: FoundationEssentials, not Foundation")
struct FoundationImportTests {
    /// The targets that are never linked into syncd: a build tool, and the benchmarks' upstream program.
    static let exempt: Set<String> = ["MigrationEmbedder", "sample-upstream"]

    @Test("no source linked into syncd imports Foundation")
    func essentialsOnly() throws {
        let sources = TargetImportTests.root.appendingPathComponent("Sources")
        var offenders: [String] = []
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        for target in targets where !Self.exempt.contains(target) {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                if text.contains(
                    /(?m)^\s*(@\w+\s+)*((public|package|internal)\s+)?import\s+(\w+\s+)?Foundation(\.|\s|$)/)
                {
                    offenders.append("\(target)/\(file)")
                }
            }
        }
        #expect(offenders.isEmpty, "these import Foundation: \(offenders)")
        #expect(targets.count > 10, "the test found the Sources folder")
    }
}
