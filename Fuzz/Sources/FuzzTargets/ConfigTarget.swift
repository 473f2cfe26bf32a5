import SyncCore
internal import SyncSQLite

/// The TOML configuration loader: any text gives a ``SyncConfiguration`` or a ``ConfigurationError`` with at least one
/// problem, each naming the file and, when it has a line, one that is in the text. Underneath, syncd's TOML reader:
/// every key and table of a document it reads has a line in the document, and a refusal points into the document.
///
/// Input: the file's bytes (read as `syncd check-config` reads them: UTF-8). Relative paths in it resolve against a
/// folder that does not exist, so that no input reads a file.
enum ConfigTarget {
    static let sourcePath = "/nonexistent/syncd-fuzz/syncd.toml"

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        try checkReader(text)
        let configuration: SyncConfiguration
        do {
            configuration = try SyncConfiguration.parse(text, sourcePath: sourcePath)
        } catch {
            try require(!error.problems.isEmpty, "a configuration error without a problem: \(error)")
            let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            for problem in error.problems {
                try require(problem.file == sourcePath, "a problem names another file: \(problem)")
                try require(!problem.message.isEmpty, "a problem without a message: \(problem)")
                if let line = problem.line {
                    try require((1...lines).contains(line), "a problem names line \(line) of \(lines): \(problem)")
                }
            }
            return
        }
        let names = configuration.plans.map(\.name.name)
        try require(Set(names).count == names.count, "two endpoints share a name: \(names)")
    }

    private static func checkReader(_ text: String) throws(FuzzFailure) {
        let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let document: TOMLDocument
        do {
            document = try TOMLReader.read(text)
        } catch {
            guard error.code == .syntax, error.problems.count == 1, let problem = error.problems.first,
                let line = problem.line, let column = problem.column
            else { throw FuzzFailure("a TOML error that is not one syntax problem at a line and column: \(error)") }
            try require((1...lines).contains(line) && column >= 1, "a TOML error outside the text: \(error)")
            try require(problem.message.count > "invalid TOML: ".count, "a TOML error without a message")
            return
        }
        try checkLines(.table(document.root), path: [], in: document, lines: lines)
    }

    /// Every key under `value` has a line within the document.
    private static func checkLines(
        _ value: TOMLValue, path: [TOMLDocument.Segment], in document: TOMLDocument, lines: Int
    ) throws(FuzzFailure) {
        switch value {
        case .table(let table):
            for key in table.keys {
                let child = path + [.key(key)]
                let line = document.line(of: child)
                try require(
                    line.map { (1...lines).contains($0) } == true, "\(child) has line \(String(describing: line))")
                try checkLines(table[key] ?? .boolean(false), path: child, in: document, lines: lines)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try checkLines(element, path: path + [.index(index)], in: document, lines: lines)
            }
        default:
            break
        }
    }
}
