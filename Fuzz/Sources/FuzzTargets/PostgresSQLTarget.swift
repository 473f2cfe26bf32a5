import SyncCore
import SyncPostgres

/// `syncd sql`'s reading of a PostgreSQL script (``PostgresScript``): where statements end, what each starts with
/// and calls, which decide what is refused before the server sees it; and the reading of the expressions of the
/// server's plan (``PostgresPlanExpression``), which decides what the guard lets run.
///
/// Input: the script's text. What is read either ends inside something (said so) or splits into statements that are
/// each non-empty, and each statement read again alone is that one statement, with the same first word and calls:
/// no `;` it holds, and nothing it calls, escapes the reading. The same text spelled as a `U&"…"` name with every
/// character escaped is read as that name.
///
/// The same text read as a plan's expression: each call it finds, written again quoted and qualified, reads as that
/// call alone; and the text inside a string literal holds no call and no operator.
enum PostgresSQLTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        try planExpression(text)
        try unicodeName(text)
        guard let script = try? PostgresScript(text) else { return }
        for statement in script.statements {
            try require(!statement.text.isEmpty, "\(text.debugDescription) gave an empty statement")
            guard let again = try? PostgresScript(statement.text) else {
                throw FuzzFailure(
                    "\(text.debugDescription) gave \(statement.text.debugDescription), which alone does not read")
            }
            try require(
                again.statements == [statement],
                "\(text.debugDescription) gave \(statement), which alone reads as \(again.statements)")
        }
    }

    private static func planExpression(_ text: String) throws(FuzzFailure) {
        let expression = PostgresPlanExpression(text)
        for call in expression.calls {
            let written = ([call.schema].compactMap { $0 } + [call.name]).map(quoted).joined(separator: ".") + "(1)"
            let again = PostgresPlanExpression(written)
            let expected = PostgresPlanExpression.Call(schema: call.schema, name: call.name, quoted: true)
            try require(
                again.calls == [expected] && !again.unreadable,
                "\(text.debugDescription) gave \(call), which written as \(written.debugDescription) reads as \(again.calls)"
            )
        }
        let literal = PostgresPlanExpression("'" + text.replacingAll("'", with: "''") + "'::text")
        try require(
            literal.calls.isEmpty && literal.operators.isEmpty && !literal.unreadable,
            "\(text.debugDescription) in a string literal gave \(literal.calls), \(literal.operators)")
    }

    private static func unicodeName(_ text: String) throws(FuzzFailure) {
        guard !text.isEmpty, text.utf8.count < 100_000, !text.unicodeScalars.contains("\u{0}") else { return }
        let escaped = text.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16)
            return "\\+" + String(repeating: "0", count: 6 - hex.count) + hex
        }
        let sql = "SELECT U&\"" + escaped.joined() + "\"(1)"
        let calls = (try? PostgresScript(sql))?.statements.first?.calls
        try require(
            calls == [text], "\(text.debugDescription) escaped as \(sql.debugDescription) reads as \(calls ?? [])")
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The text with every `target` replaced (without Foundation), scalar by scalar: a quote followed by a combining
    /// mark is one Character, which compared as a Character would not be a quote (the fuzzer found one).
    fileprivate func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == target { result += replacement } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
