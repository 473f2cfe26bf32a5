import SyncSupport

extension ConfigurationParser {
    /// An endpoint's `method`, `body` and `body_file`, kept while its fields are read and checked together after.
    struct RequestFields {
        var method: Field?
        var body: Field?
        var bodyFile: Field?

        /// Keeps `field` when it is one of the three; false otherwise.
        mutating func take(_ field: Field) -> Bool {
            switch field.key {
            case "method": method = field
            case "body": body = field
            case "body_file": bodyFile = field
            default: return false
            }
            return true
        }
    }

    /// Checks `method`, `body` or `body_file`, and the pagination's `body_path` together: the method and the body's
    /// text (`body_file` read), or nil after reporting each problem at its key's line.
    ///
    /// - Parameter paginationPath: where `pagination` is set: in the endpoint or in `[defaults]`.
    mutating func request(
        _ fields: RequestFields, pagination: PaginationConfiguration?, paginationPath: [TOMLDocument.Segment],
        context: String
    ) -> (method: SyncEndpoint.Method, body: String?)? {
        let problemCount = problems.count
        var method = SyncEndpoint.Method.get
        if let field = fields.method {
            if let text = field.value.string, let value = SyncEndpoint.Method(rawValue: text) {
                method = value
            } else {
                report("method must be \"GET\" or \"POST\"", at: field)
            }
        }
        var text: String?
        let bodyField = fields.body ?? fields.bodyFile
        if let field = fields.body {
            text = field.value.string
            if text == nil { report("body must be a string holding JSON, such as '''{\"query\": \"…\"}'''", at: field) }
        }
        if let field = fields.bodyFile {
            if fields.body != nil {
                report("set body or body_file, not both", at: field)
            } else if let path = path(field, what: "body_file must be a path to a file holding the JSON body") {
                do {
                    text = try ConfigurationFile.readText(atPath: path, limit: RequestBody.maxBytes)
                } catch {
                    report("body_file \"\(path)\" \(error.reason)", at: field)
                }
            }
        }
        guard problems.count == problemCount else { return nil }
        var found: [OptionProblem] = []
        _ = RequestBody.compile(
            method: method, body: text, bodyKey: bodyField?.key ?? "body", pagination: pagination,
            problems: &found)
        for problem in found {
            if problem.key == "body_path" {
                report(problem.sentence, at: paginationPath + [.key("body_path")], context: context)
            } else if let bodyField {
                report(problem.sentence, at: bodyField)
            }
        }
        return problems.count == problemCount ? (method, text) : nil
    }
}
