import Foundation

/// `docs/reference/cli.md`'s commands, written from `syncd --experimental-dump-help`: the argument parser's own
/// description of every command, argument, option, default and help text (what the man page is made from).
enum ReferenceCLIMarkdown {
    /// The parts of the JSON that `--experimental-dump-help` prints (serialization version 0) which the page uses.
    struct ToolInfo: Decodable {
        var serializationVersion: Int
        var command: Command
    }

    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var superCommands: [String]?
        var arguments: [Argument]?
        var subcommands: [Command]?
    }

    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var defaultValue: String?
        var isOptional: Bool
        var isRepeating: Bool
        var shouldDisplay: Bool
        var allValues: [String]?

        /// `-h, --help`, or for a positional `<endpoint>`.
        var label: String {
            let value = "<\(valueName ?? "value")>"
            guard kind != "positional" else { return value }
            let spelled = (names ?? []).map { $0.kind == "short" ? "-\($0.name)" : "--\($0.name)" }
            // Each spelling once: `help` lists `--help` twice, as a long name and a legacy one.
            let unique = spelled.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            return unique.joined(separator: ", ") + (kind == "option" ? " \(value)" : "")
        }

        /// The argument as the usage line writes it: `[--format <format>]`, `<endpoint> ...`.
        var usage: String {
            let first = (names ?? []).first { $0.kind == "long" } ?? names?.first
            var text: String
            switch kind {
            case "positional": text = "<\(valueName ?? "value")>"
            case "flag": text = first.map { $0.kind == "short" ? "-\($0.name)" : "--\($0.name)" } ?? ""
            default: text = (first.map { "--\($0.name)" } ?? "") + " <\(valueName ?? "value")>"
            }
            if isRepeating { text += " ..." }
            return isOptional ? "[\(text)]" : text
        }

        /// The options every command has, documented once at the top.
        var isCommon: Bool {
            guard kind == "flag" else { return false }
            return (names ?? []).contains { ["help", "version"].contains($0.name) }
        }
    }

    /// Runs the built binary for its description.
    static func toolInfo() async throws -> ToolInfo {
        let result = try await SyncdProcess.run(["--experimental-dump-help"])
        guard result.status == 0 else {
            throw ReferencePage.PageError(description: "syncd --experimental-dump-help: \(result.standardError)")
        }
        return try JSONDecoder().decode(ToolInfo.self, from: Data(result.standardOutput.utf8))
    }

    /// The page's `commands` part: the root command, then each subcommand in the parser's order.
    static func markdown(_ info: ToolInfo) -> String {
        let root = info.command
        var text = section(root, path: [root.commandName], isRoot: true)
        for command in root.subcommands ?? [] where command.shouldDisplay != false {
            text += "\n" + section(command, path: [root.commandName, command.commandName], isRoot: false)
        }
        return text
    }

    static func section(_ command: Command, path: [String], isRoot: Bool) -> String {
        let name = path.joined(separator: " ")
        let arguments = (command.arguments ?? []).filter { $0.shouldDisplay && !(isRoot ? false : $0.isCommon) }
        var lines = ["## \(name)", ""]
        if let abstract = command.abstract, !abstract.isEmpty {
            lines += [MarkdownText.escaped(abstract), ""]
        }
        let usage = ([name] + (isRoot ? ["<command>"] : []) + arguments.map(\.usage)).joined(separator: " ")
        lines += ["Usage: " + MarkdownText.code(usage), ""]
        lines += discussion(command.discussion ?? "", isRoot: isRoot)
        let positionals = arguments.filter { $0.kind == "positional" }
        let options = arguments.filter { $0.kind != "positional" }
        if !positionals.isEmpty {
            lines += ["Arguments:", ""] + positionals.map(item) + [""]
        }
        if !options.isEmpty {
            lines += [isRoot ? "Options (every command takes these too):" : "Options:", ""] + options.map(item) + [""]
        }
        if isRoot, let subcommands = command.subcommands {
            lines += ["Commands:", ""]
            for sub in subcommands where sub.shouldDisplay != false {
                let anchor = "syncd-\(sub.commandName)"
                lines.append(
                    "- [`\(name) \(sub.commandName)`](#\(anchor)): \(MarkdownText.escaped(sub.abstract ?? ""))")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The discussion as paragraphs: a line of its own stays one (the root's `Configuration:` and `Database:`). The
    /// root's exit codes are left to the exit-codes page.
    static func discussion(_ text: String, isRoot: Bool) -> [String] {
        var text = text
        if isRoot, let range = text.range(of: "\n\nExit codes:") {
            text = String(text[..<range.lowerBound])
        }
        var lines: [String] = []
        for line in text.components(separatedBy: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines += [MarkdownText.escaped(line.trimmingCharacters(in: .whitespaces)), ""]
        }
        if isRoot {
            lines += ["Exit codes: see [Exit codes](exit-codes.md).", ""]
        }
        return lines
    }

    /// One argument as a list item: its spelling, whether it repeats, its help, values and default.
    static func item(_ argument: Argument) -> String {
        var text = "- " + MarkdownText.code(argument.label)
        var notes: [String] = []
        if argument.kind == "positional" { notes.append(argument.isOptional ? "optional" : "required") }
        if argument.isRepeating { notes.append("repeatable") }
        if !notes.isEmpty { text += " (\(notes.joined(separator: ", ")))" }
        var help = MarkdownText.escaped(argument.abstract ?? "")
        if !help.isEmpty, !help.hasSuffix(".") && !help.hasSuffix(")") { help += "." }
        if !help.isEmpty { text += ": " + help }
        if let values = argument.allValues, !values.isEmpty {
            text += " Values: " + values.map(MarkdownText.code).joined(separator: ", ") + "."
        }
        if let value = argument.defaultValue, !value.isEmpty {
            text += " Default: " + MarkdownText.code(value) + "."
        }
        return text
    }
}
