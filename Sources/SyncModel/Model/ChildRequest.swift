import SyncDecoding

// A child endpoint's `{parent.COLUMN}` templates: their URL, header values and body, read by ParentTemplate, as the
// configuration checks them; parsed once when the child is linked, and rendered per parent row for each walk.

/// A child endpoint's request for one parent row: each ``ParentTemplate`` of the endpoint (its `url`, header values
/// and `body`) rendered with the row's values, each encoded for where it stands.
package enum ChildRequest {
    /// The texts of an endpoint that may hold `{parent.NAME}`, with the key that names each in syncd.toml and where
    /// each is used.
    static func texts(of endpoint: SyncEndpoint) -> [(key: String, text: String, use: ParentTemplate.Use)] {
        var texts: [(key: String, text: String, use: ParentTemplate.Use)] = [("url", endpoint.url, .url)]
        texts += endpoint.headerFields.map { ("headers", $0.value, .header) }
        if let body = endpoint.body { texts.append(("body", body, .body)) }
        return texts
    }

    /// The column names the endpoint's templates use, in order, each once; a text that does not read as a template
    /// gives none (``problems(of:)`` says why).
    static func names(of endpoint: SyncEndpoint) -> [String] {
        var names: [String] = []
        for (_, text, use) in texts(of: endpoint) where ParentTemplate.mentionsParent(text) {
            guard let template = try? ParentTemplate(parsing: text, for: use) else { continue }
            for name in template.names where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// What is wrong with the endpoint's templates, by key: one that does not read, or — without a `parent` — one at
    /// all.
    static func problems(of endpoint: SyncEndpoint) -> [OptionProblem] {
        texts(of: endpoint).compactMap { key, text, use in
            guard ParentTemplate.mentionsParent(text) else { return nil }
            guard endpoint.parent != nil else {
                return OptionProblem(key: key, "\(key) takes {parent.COLUMN} only in an endpoint with a \"parent\"")
            }
            do {
                _ = try ParentTemplate(parsing: text, for: use)
                return nil
            } catch {
                return OptionProblem(key: key, "\(key): \(error)")
            }
        }
    }

    /// `url` with each placeholder replaced by a plain value, for the checks of a URL's shape; `url` itself when it
    /// does not read as a template.
    static func sample(_ url: String) -> String {
        guard ParentTemplate.mentionsParent(url), let template = try? ParentTemplate(parsing: url, for: .url) else {
            return url
        }
        return template.exampleText
    }
}

extension ChildRequest {
    /// A child endpoint's templates, parsed once when ``FanOutLink`` links it, so that a run renders each parent's
    /// request without reading its texts again. nil stands for a text without `{parent.`: sent as written.
    struct Templates: Sendable, Hashable {
        var url: ParentTemplate?
        /// One per header of the endpoint, in order.
        var headers: [ParentTemplate?]
        var body: ParentTemplate?

        /// - Throws: ``ParentTemplate/Problem`` for a text that does not read (the configuration's checks refuse it
        ///   first, at its line).
        init(_ endpoint: EndpointConfiguration) throws(ParentTemplate.Problem) {
            func parsed(_ text: String, for use: ParentTemplate.Use) throws(ParentTemplate.Problem) -> ParentTemplate? {
                ParentTemplate.mentionsParent(text) ? try ParentTemplate(parsing: text, for: use) : nil
            }
            url = try parsed(endpoint.url, for: .url)
            headers = []
            for header in endpoint.headers { headers.append(try parsed(header.value, for: .header)) }
            body = try endpoint.declared.body.flatMap { text throws(ParentTemplate.Problem) in
                try parsed(text, for: .body)
            }
        }
    }

    /// The request of a child endpoint for one parent row: its URL, headers and body, each `{parent.COLUMN}` taking
    /// the row's value.
    ///
    /// - Throws: ``ParentTemplate/Problem`` when a value cannot stand where it is (a null, a control character in a
    ///   header, a URL past its bound): that parent is not walked.
    package static func render(_ endpoint: EndpointConfiguration, for parent: ParentRow) throws(ParentTemplate.Problem)
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
