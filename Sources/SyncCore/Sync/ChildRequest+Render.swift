// A child endpoint's request for one parent row: its `{parent.COLUMN}` templates, parsed once (ChildRequest), rendered
// with the row's values for that parent's walk.

extension ChildRequest {
    /// The request of a child endpoint for one parent row: its URL, headers and body, each `{parent.COLUMN}` taking
    /// the row's value.
    ///
    /// - Throws: ``ParentTemplate/Problem`` when a value cannot stand where it is (a null, a control character in a
    ///   header, a URL past its bound): that parent is not walked.
    static func render(_ endpoint: EndpointConfiguration, for parent: ParentRow) throws(ParentTemplate.Problem)
        -> (url: String, headers: [(name: String, value: String)], body: RequestBody?)
    {
        guard let plan = endpoint.fanOut else { return (endpoint.url, endpoint.headers, endpoint.body) }
        let value = { (name: String) -> ColumnValue? in
            guard let index = plan.parentColumns.firstIndex(of: name), index < parent.values.count else { return nil }
            return parent.values[index]
        }
        let templates = plan.templates
        let url = try templates.url?.render(value) ?? endpoint.url
        var headers = endpoint.headers
        for (index, template) in zip(headers.indices, templates.headers) {
            if let template { headers[index].value = try template.render(value) }
        }
        var body = endpoint.body
        if let template = templates.body {
            let text = try template.render(value)
            do {
                body = try RequestBody(text)
            } catch {
                throw ParentTemplate.Problem(error.sentence)
            }
        }
        return (url, headers, body)
    }
}
