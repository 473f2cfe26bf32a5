/// PostgREST's `like` and `ilike` patterns as the stores' SQL matches them: `*` or `%` for any run of characters, `_`
/// for one, a backslash for the next character as itself.
package enum RecordPattern {
    /// A `like` pattern, case-sensitive, as a GLOB (SQLite's case-sensitive match): `*` or `%` for any run of
    /// characters, `_` for one (PostgreSQL's LIKE, with PostgREST's `*` alias), a backslash for the next character
    /// as itself; other GLOB characters escaped.
    package static func glob(_ pattern: String) -> String {
        // GLOB has no escape character: a special one stands for itself as a set of one.
        func literal(_ character: Character) -> String {
            "*?[]".contains(character) ? "[\(character)]" : String(character)
        }
        return translate(pattern, literal: literal) { character in
            switch character {
            case "*", "%": "*"
            case "_": "?"
            default: literal(character)
            }
        }
    }

    /// A `like` or `ilike` pattern as an SQL LIKE with `\` as its escape: `*` or `%` for any run of characters, `_`
    /// for one, a backslash for the next character as itself.
    package static func like(_ pattern: String) -> String {
        translate(pattern, literal: { "%_\\".contains($0) ? "\\\($0)" : String($0) }) { $0 == "*" ? "%" : String($0) }
    }

    /// `pattern` with each character after a backslash written by `literal`, and each other one by `unescaped`.
    private static func translate(
        _ pattern: String, literal: (Character) -> String, unescaped: (Character) -> String
    ) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                result += literal(character)
            } else if character == "\\" {
                escaped = true
            } else {
                result += unescaped(character)
            }
        }
        if escaped { result += literal("\\") }  // a trailing backslash stands for itself
        return result
    }
}
