// The grammar of the read API's query parameters, written once: the OpenAPI document publishes these patterns, and
// the parsers accept what they match (OpenAPIDocumentTests and the `query` fuzz target compare the two).

internal import SyncCore
import SyncSupport

/// Regular expressions (the subset ECMA-262, Python and Swift read alike) for the values of the read API's query
/// parameters, and the checks the parsers make where `Int64(_:)` or `Double(_:)` alone would read more.
enum QueryGrammar {
    /// Spaces and tabs, which list items may have around them.
    static let blank = "[ \\t]*"

    /// Digits for 0 to `Int64.max`, leading zeros allowed: a version, a rowid, `since`.
    static let natural = "0*" + atMost("9223372036854775807")

    /// What `Int64(_:)` reads: a sign, digits, within `Int64`'s range.
    static let integer = "([+-]?\(natural)|-0*9223372036854775808)"

    /// A decimal number, with or without an exponent; no `inf`, `nan` or hexadecimal.
    static let real = "[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?"

    /// true or false in any case, or 1 or 0.
    static let boolean = "(\(caseless("true"))|\(caseless("false"))|0|1)"

    /// A date or a UTC date-time. The read API takes more (offsets, Unix seconds, the 29th to 31st): a pattern of
    /// every valid date would be long, so the document describes only these, which are always taken.
    static let timestamp =
        "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,3})?Z)?"

    /// A change-feed position, `VERSION.r.ROWID` or `VERSION.d.ROWID`.
    static let position = "\(natural)\\.[rd]\\.\(natural)"

    /// A filter's value on a column of `type` (not in a list).
    static func value(_ type: ColumnType) -> String {
        switch type {
        case .integer: integer
        case .real: real
        case .boolean: boolean
        case .timestamp: timestamp
        case .text, .json: "[\\s\\S]*"
        }
    }

    /// `in.(…)`'s list of values of `type`: items separated by commas, each with blanks around it, double-quoted
    /// (a backslash escapes the next character) or not. A quoted typed value is described without escapes.
    static func list(_ type: ColumnType) -> String {
        let item =
            switch type {
            case .text, .json: "\(blank)(\"([^\"\\\\]|\\\\[\\s\\S])*\"\(blank)|([^\", \\t][^,]*)?)"
            default: "\(blank)(\"\(value(type))\"|\(value(type)))\(blank)"
            }
        return "\\((\(item)(,\(item)){0,\(QueryLimits.inValues - 1)})?\\)"
    }

    /// A filter on a column of `type`: an operator and a value the column's type takes.
    static func filter(_ type: ColumnType) -> String {
        let compare = "(eq|neq|gt|gte|lt|lte)\\.(\(value(type)))"
        let like = "(like|ilike)\\.[\\s\\S]*"
        let isValue = "is\\.(\(caseless("null"))|\(caseless("true"))|\(caseless("false")))"
        return "^(not\\.)?(\(compare)|\(like)|in\\.\(list(type))|\(isValue))$"
    }

    /// `select`: empty or `*` (the records), or configured columns, each at most once.
    static func select(_ columns: [String]) -> String {
        let column = names(columns)
        let repeated = "(?!(?:[^,]*,)*\(blank)(\(column))\(blank),(?:[^,]*,)*\(blank)\\1\(blank)(?:,|$))"
        let item = "\(blank)(?:\(column))\(blank)"
        return "^\(repeated)(\(blank)\\*\(blank)|\(item)(,\(item))*)?$"
    }

    /// `order`: up to ``QueryLimits/orderItems`` items `col[.asc|.desc][.nullsfirst|.nullslast]`.
    static func order(_ columns: [String]) -> String {
        let item = "(?:\(names(columns)))(\\.(asc|desc))?(\\.(nullsfirst|nullslast))?"
        return "^(\(item)(,\(item)){0,\(QueryLimits.orderItems - 1)})?$"
    }

    /// `a|b|c`: the names, escaped, as alternatives.
    static func names(_ names: [String]) -> String {
        names.map(regexEscaped).joined(separator: "|")
    }

    /// A regular expression that matches `text` as it is.
    static func regexEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) { escaped.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// `[tT][rR][uU][eE]` for `true`: ASCII letters in either case.
    static func caseless(_ word: String) -> String {
        word.map { "[\($0)\($0.uppercased())]" }.joined()
    }

    /// The decimal numbers from 0 to `bound` (digits, no leading zero) that have as many digits as it, or fewer.
    static func atMost(_ bound: String) -> String {
        let digits = Array(bound.utf8).map { Int($0 - UInt8(ascii: "0")) }
        var alternatives = digits.count > 1 ? ["[0-9]{1,\(digits.count - 1)}"] : []
        for (index, digit) in digits.enumerated() where digit > 0 {
            let rest = digits.count - index - 1
            alternatives.append(
                String(bound.prefix(index)) + (digit == 1 ? "0" : "[0-\(digit - 1)]")
                    + (rest > 0 ? "[0-9]{\(rest)}" : ""))
        }
        alternatives.append(bound)
        return "(" + alternatives.joined(separator: "|") + ")"
    }

    // MARK: - Checks

    /// Whether `text` is ASCII digits alone, at least one.
    static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(ASCIIDigits.isDigit)
    }

    /// A whole number 0 or more written in digits alone (no sign), if `Int64` holds it.
    static func natural(_ text: some StringProtocol) -> Int64? {
        isDigits(text) ? Int64(text) : nil
    }

    /// Whether `text` is a ``real`` number, as `Double(_:)` reads it.
    static func isReal(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let whole = bytes.prefix(while: ASCIIDigits.isDigit).count
        bytes = bytes.dropFirst(whole)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: ASCIIDigits.isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole + fraction > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix(while: ASCIIDigits.isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty && Double(text) != nil
    }
}
