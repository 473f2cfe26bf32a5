import Foundation
import FuzzTargets
import Testing

/// The fuzz targets of Fuzz/ on their committed corpus: the seeds, and every input that once crashed a target,
/// kept there as a regression seed. libFuzzer itself runs in `Fuzz/run.sh`, not here.
@Suite("fuzz corpus replay")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    @Test("every seed and past crash input passes its fuzz target", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) throws {
        let files = Replayer.files(at: Self.corpus.appendingPathComponent(target.rawValue).path)
        #expect(files.count >= 5, "Fuzz/corpus/\(target.rawValue) holds \(files.count) inputs")
        for file in files {
            let input = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(throws: Never.self, "\(file)") { try target.run(input) }
        }
    }
}
