extension ConfigurationParser {
    /// `headers = { Accept = "application/json" }`. Values are never quoted in messages.
    mutating func headers(_ field: Field) -> [SyncEndpoint.HeaderField]? {
        guard let table = field.value.table else {
            report("headers must be an inline table of strings such as { Accept = \"application/json\" }", at: field)
            return nil
        }
        var headers: [SyncEndpoint.HeaderField] = []
        var isValid = true
        for header in fields(of: table, in: Scope(path: field.path, context: field.scope.context)) {
            let value = header.value.string
            if let problem = EndpointRules.header(name: header.key, value: value ?? "") {
                report(problem, at: header)
                isValid = false
            } else if let value {
                headers.append(SyncEndpoint.HeaderField(name: header.key, value: value))
            } else {
                report("headers: the value of \"\(header.key)\" must be a string", at: header)
                isValid = false
            }
        }
        return isValid ? headers : nil
    }
}
