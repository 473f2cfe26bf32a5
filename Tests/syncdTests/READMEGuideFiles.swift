import Foundation

/// The user's documentation: README.md, then every Markdown file under docs/, in path order. The README tests read
/// these, so an example is executed wherever it moved in the guide.
enum GuideFiles {
    struct File {
        /// The path from the repository's root: `README.md`, `docs/how-to/systemd.md`.
        var path: String
        var lines: [String]
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The paths of README.md and every `docs/**/*.md`.
    static func paths() -> [String] {
        var paths: [String] = []
        let docs = root.appendingPathComponent("docs")
        if let walk = FileManager.default.enumerator(atPath: docs.path) {
            for case let relative as String in walk where relative.hasSuffix(".md") {
                paths.append("docs/" + relative)
            }
        }
        return ["README.md"] + paths.sorted()
    }

    static func all() throws -> [File] {
        try paths().map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return File(path: path, lines: text.components(separatedBy: "\n"))
        }
    }
}
