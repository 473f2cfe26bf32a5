import SyncCore

/// `syncd sql`'s reading of a PostgreSQL script (``PostgresScript``): where statements end, what each starts with
/// and calls, which decide what is refused before the server sees it.
///
/// Input: the script's text. What is read either ends inside something (said so) or splits into statements that are
/// each non-empty, and each statement read again alone is that one statement, with the same first word and calls:
/// no `;` it holds, and nothing it calls, escapes the reading.
enum PostgresSQLTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
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
}
