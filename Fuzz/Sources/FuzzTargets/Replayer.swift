internal import Foundation

/// Runs a target on files: the corpus replayer of a normal build, and what the corpus test reads inputs with.
package enum Replayer {
    /// `TARGET [FILE|FOLDER …]`: each file, or each file in a folder (not recursing), through the target.
    ///
    /// - Returns: the exit status: 0 when every input passed, 1 when one failed, 64 for bad arguments.
    package static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            print("usage: syncd-fuzz \(names) [FILE|FOLDER …]")
            return 64
        }
        var failed = 0
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                count += 1
                do {
                    try target.run(try Array(Data(contentsOf: URL(fileURLWithPath: file))))
                } catch {
                    failed += 1
                    print("\(file): \(error)")
                }
            }
        }
        print("\(target.rawValue): \(count) inputs, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    /// The path itself when it is a file; the files in it, sorted, when it is a folder (hidden ones left out).
    package static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
}
