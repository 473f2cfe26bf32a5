/// The command lines that answer at once, in their usual forms — `syncd --version`, `syncd get ENDPOINT [ID]` and
/// `syncd query ENDPOINT` with their value options — read without swift-argument-parser.
///
/// The parser reads a command line by reflecting over each command of the tree and casting its properties to the
/// parser's protocols, and it parses the line three times (twice to look for `--generate-completion-script`). Each
/// cast that fails searches all of the binary's 10,871 protocol conformances: 3.5 ms of `syncd get`'s 9.8 (issue
/// 45), where the sqlite3 shell answers the same read in 2.
///
/// Only a line this reader understands whole is read here; any other (`--help`, `--max-age`, `--`, `--name=value`,
/// a value that starts with `-`, an option given twice, an unknown option, a missing value, a bad limit or format)
/// goes to the parser, which reads it as before and says what is wrong with it. `ShortCommandLineTests` checks that
/// each line read here is read as the parser reads it.
enum ShortCommandLine: Equatable {
    case version
    case get(GetRequest)
    case query(QueryRequest)

    /// The command `arguments` (without the program's name) asks for; nil for a line the parser must read.
    init?(_ arguments: [String]) {
        guard let first = arguments.first else { return nil }
        if arguments == ["--version"] {
            self = .version
            return
        }
        // Arrays, not sets: a Set<String> made at start-up costs a search of the binary's conformances.
        let options: [String] =
            switch first {
            case "get": ["--config", "--database", "--if-none-match"]
            case "query": ["--config", "--database", "--where", "--order", "--limit", "--format"]
            default: []
            }
        guard !options.isEmpty, let (positionals, values) = Self.split(arguments.dropFirst(), options: options) else {
            return nil
        }
        let paths = StorePaths(config: values["--config"]?.first, database: values["--database"]?.first)
        if first == "get" {
            guard (1...2).contains(positionals.count) else { return nil }
            self = .get(
                GetRequest(
                    paths: paths, endpoint: positionals[0], id: positionals.dropFirst().first,
                    ifNoneMatch: values["--if-none-match"]?.first))
            return
        }
        guard positionals.count == 1 else { return nil }
        var request = QueryRequest(
            paths: paths, endpoint: positionals[0], conditions: values["--where"] ?? [],
            order: values["--order"]?.first)
        if let limit = values["--limit"]?.first {
            guard let value = Int(limit) else { return nil }
            request.limit = value
        }
        if let format = values["--format"]?.first {
            guard let value = OutputFormat(rawValue: format) else { return nil }
            request.format = value
        }
        // What the parser's validate() refuses, the parser says.
        guard (try? request.validate()) != nil else { return nil }
        self = .query(request)
    }

    /// The positional arguments, and each option's values (only `--where` may come more than once); nil when an
    /// argument is not one of these.
    private static func split(
        _ arguments: ArraySlice<String>, options: [String]
    ) -> ([String], [String: [String]])? {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if options.contains(argument) {
                let next = arguments.index(after: index)
                guard next < arguments.endIndex, !arguments[next].hasPrefix("-") else { return nil }
                guard values[argument] == nil || argument == "--where" else { return nil }
                values[argument, default: []].append(arguments[next])
                index = arguments.index(after: next)
            } else {
                guard !argument.hasPrefix("-") else { return nil }
                positionals.append(argument)
                index = arguments.index(after: index)
            }
        }
        return (positionals, values)
    }

    /// Runs the command; false when it must run where the parser runs it (a PostgreSQL store's read).
    func run() throws -> Bool {
        switch self {
        case .version:
            Terminal.standardOutput.write(SyncdVersionText.current + "\n")
            return true
        case .get(let request):
            return try request.runImmediately()
        case .query(let request):
            return try request.runImmediately()
        }
    }
}
