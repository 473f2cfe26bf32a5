import Foundation
import SyncCore

/// The problems `parse` reports for `text`, as printed; empty when the configuration is valid.
package func configurationProblems(_ text: String, sourcePath: String = "syncd.toml") -> [String] {
    do {
        _ = try SyncConfiguration.parse(text, sourcePath: sourcePath)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

/// A temporary directory for one test, removed afterwards.
package func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncd-config-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }  // best effort: a leftover temp dir is harmless
    return try body(path)
}

/// Writes `text` to `directory/name` and returns the path.
package func writeFile(_ text: String, named name: String, in directory: String) throws -> String {
    let path = directory + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
