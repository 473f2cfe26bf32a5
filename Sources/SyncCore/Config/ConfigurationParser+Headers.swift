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
