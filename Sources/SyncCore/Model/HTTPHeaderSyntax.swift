/// The syntax of header names and values (RFC 9110 §5.1, §5.5), for headers taken from the configuration.
enum HTTPHeaderSyntax {
    /// Whether `name` is a token: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// Whether a value holds CR, LF or NUL, which would end or split the header.
    static func hasForbiddenByte(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}

extension ConfigurationParser {
    /// `headers = { Accept = "application/json" }`. Values are never quoted in messages.
    mutating func headers(_ field: Field) -> [(name: String, value: String)]? {
        guard let table = field.value.table else {
            report("headers must be an inline table of strings such as { Accept = \"application/json\" }", at: field)
            return nil
        }
        var headers: [(name: String, value: String)] = []
        var isValid = true
        for header in fields(of: table, in: Scope(path: field.path, context: field.scope.context)) {
            guard HTTPHeaderSyntax.isToken(header.key) else {
                report("headers: \"\(header.key)\" is not a valid header name", at: header)
                isValid = false
                continue
            }
            guard let value = header.value.string else {
                report("headers: the value of \"\(header.key)\" must be a string", at: header)
                isValid = false
                continue
            }
            guard !HTTPHeaderSyntax.hasForbiddenByte(value) else {
                report("headers: the value of \"\(header.key)\" must not contain CR, LF or NUL", at: header)
                isValid = false
                continue
            }
            headers.append((header.key, value))
        }
        return isValid ? headers : nil
    }
}
