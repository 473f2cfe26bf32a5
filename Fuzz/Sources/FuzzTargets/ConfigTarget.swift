import SyncCore

/// The TOML configuration loader: any text gives a ``Configuration`` or a ``ConfigurationError`` with at least one
/// problem, each naming the file and, when it has a line, one that is in the text.
///
/// Input: the file's bytes (read as `syncd check-config` reads them: UTF-8). Relative paths in it resolve against a
/// folder that does not exist, so that no input reads a file.
enum ConfigTarget {
    static let sourcePath = "/nonexistent/syncd-fuzz/syncd.toml"

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let configuration: Configuration
        do {
            configuration = try Configuration.parse(text, sourcePath: sourcePath)
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
        let names = configuration.endpoints.map(\.name.name)
        try require(Set(names).count == names.count, "two endpoints share a name: \(names)")
    }
}
