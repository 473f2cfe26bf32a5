import SyncCore
import SyncSupport

/// Names for the Swift code ``SwiftModelWriter`` prints: types in UpperCamelCase, properties in lowerCamelCase,
/// keywords escaped, keys as string literals.
enum SwiftNaming {
    /// Names a top-level struct must not take, or the code around it would no longer mean the standard types.
    static let reservedTypeNames: Set<String> = [
        "Any", "Array", "Bool", "Character", "Codable", "CodingKey", "CodingKeys", "Decodable", "Dictionary", "Double",
        "Encodable", "Error", "Int", "Never", "Optional", "Protocol", "Result", "Self", "Sendable", "Set", "String",
        "Type", "Void",
    ]

    /// Words that need backticks as property names.
    static let keywords: Set<String> = [
        "associatedtype", "as", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do",
        "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import",
        "in", "init", "inout", "internal", "is", "let", "nil", "open", "operator", "private", "protocol", "public",
        "repeat", "rethrows", "return", "self", "Self", "static", "struct", "subscript", "super", "switch", "throw",
        "throws", "true", "try", "typealias", "var", "where", "while", "Any", "Type",
    ]

    /// `home_address` → `HomeAddress`; `fallback` when the text has no usable word.
    static func typeName(_ text: String, fallback: String) -> String {
        let words = IdentifierNaming.words(text)
        var name = words.map(capitalized).joined()
        if name.isEmpty { name = fallback }
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = fallback + name }
        return reservedTypeNames.contains(name) ? name + "Object" : name
    }

    /// `user_name` → `userName`; `_1` for a key that starts with a digit, `value` for one with no usable word.
    static func propertyName(_ key: String) -> String {
        let words = IdentifierNaming.words(key)
        guard let first = words.first else { return "value" }
        let name = first.lowercased() + words.dropFirst().map(capitalized).joined()
        if let scalar = name.unicodeScalars.first, ("0"..."9").contains(scalar) { return "_" + name }
        return name
    }

    /// The name as written in a declaration: keywords in backticks.
    static func declared(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `items` → `items` minus its plural: `Item`; `categories` → `Category`.
    static func singular(_ name: String) -> String {
        if name.hasSuffix("ies"), name.count > 4 { return String(name.dropLast(3)) + "y" }
        if name.hasSuffix("s"), !name.hasSuffix("ss"), name.count > 3 { return String(name.dropLast()) }
        return name
    }

    /// A Swift string literal, with what ``ControlCharacters`` escapes in code (control characters, bidirectional
    /// controls) written as `\u{…}`.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if ControlCharacters.needsEscape(scalar, .code) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }
}
