import Foundation

/// `docs/reference/http.md`'s routes, written from the `/openapi.json` a live `syncd run` serves: every route with
/// its parameters and answers, the shared headers, and the document's own description of filters and bounds.
///
/// The document is made for the configuration it runs with (``configuration(_:)``): a collection `users` and a
/// document `flags`. The page writes each endpoint's name as `{endpoint}`.
enum ReferenceHTTPMarkdown {
    /// The example configuration: the CLI tests' `users` and `flags`, with a GitHub-signed webhook on `users` whose
    /// secret is the file `secretFile`.
    static func configuration(_ baseURL: String, secretFile: String) -> String {
        CLITests.toml(baseURL).replacingOccurrences(
            of: "primary_key = [\"id\"]\n",
            with: "primary_key = [\"id\"]\nwebhook = { secret_file = \"\(secretFile)\", signature = \"github\" }\n")
    }

    static let endpoints = ["users", "flags"]

    /// The header of the example's webhook, whose parameter the document leaves without a description.
    static let signatureHeader = "X-Hub-Signature-256"

    /// The order of the routes on the page; a route the document has and this list lacks comes after, by path.
    static let order = [
        "/", "/healthz", "/metrics", "/openapi.json", "/v1/endpoints", "/v1/endpoints/{endpoint}/records",
        "/rest/{endpoint}", "/v1/endpoints/{endpoint}/records/{id}", "/v1/endpoints/{endpoint}/changes",
        "/v1/endpoints/{endpoint}/drift", "/v1/endpoints/{endpoint}/document", "/v1/hooks/{endpoint}",
    ]

    typealias Object = [String: Any]

    /// The page's `routes` part.
    static func markdown(_ data: Data) throws -> String {
        guard let document = try JSONSerialization.jsonObject(with: data) as? Object,
            let paths = document["paths"] as? Object, let components = document["components"] as? Object
        else { throw ReferencePage.PageError(description: "/openapi.json is not an OpenAPI document") }
        var lines: [String] = []
        if let info = document["info"] as? Object, let description = info["description"] as? String {
            lines += ["### The document's own summary", ""]
            for paragraph in description.components(separatedBy: "\n\n") {
                lines += [MarkdownText.escaped(paragraph), ""]
            }
        }
        var routes: [(path: String, method: String, operation: Object)] = []
        for (path, item) in paths {
            guard let item = item as? Object else { continue }
            for (method, operation) in item {
                guard let operation = operation as? Object else { continue }
                routes.append((template(path), method, operation))
            }
        }
        routes.sort { rank($0.path) < rank($1.path) || (rank($0.path) == rank($1.path) && $0.path < $1.path) }
        for route in routes {
            lines += operation(route.path, route.method, route.operation, components: components)
        }
        lines += headers(components)
        lines += schemas(components)
        return lines.joined(separator: "\n")
    }

    static func rank(_ path: String) -> Int { order.firstIndex(of: path) ?? order.count }

    /// A path of the example with its endpoint's name as `{endpoint}`.
    static func template(_ text: String) -> String {
        var text = text
        for name in endpoints {
            text = text.replacingOccurrences(of: "/\(name)/", with: "/{endpoint}/")
            if text.hasSuffix("/\(name)") { text = String(text.dropLast(name.count)) + "{endpoint}" }
        }
        return text
    }

    /// Prose of the document about the example's endpoints, with `{endpoint}` for their names.
    static func generic(_ text: String) -> String {
        var text = text
        for name in endpoints {
            var result = ""
            var rest = Substring(text)
            while let range = rest.range(of: name) {
                let before = rest[..<range.lowerBound].last ?? (result.last ?? " ")
                let after = rest[range.upperBound...].first ?? " "
                let isWord = before.isLetter || before.isNumber || after.isLetter || after.isNumber
                result += rest[..<range.lowerBound] + (isWord ? name : "{endpoint}")
                rest = rest[range.upperBound...]
            }
            text = result + rest
        }
        return text
    }

    static func operation(_ path: String, _ method: String, _ operation: Object, components: Object) -> [String] {
        var lines = ["### \(method.uppercased()) \(path)", ""]
        if let summary = operation["summary"] as? String { lines += [MarkdownText.escaped(generic(summary)), ""] }
        if let description = operation["description"] as? String {
            lines += [MarkdownText.escaped(generic(description)), ""]
        }
        if let security = operation["security"] as? [Any], security.isEmpty {
            lines += ["No bearer token is asked for: the signature authenticates the request.", ""]
        }
        let parameters = (operation["parameters"] as? [Any] ?? []).compactMap {
            resolve($0, in: components, kind: "parameters")
        }
        if !parameters.isEmpty {
            lines += ["| Parameter | In | Meaning |", "|---|---|---|"]
            var filters: [String] = []
            for parameter in parameters {
                let name = parameter["name"] as? String ?? ""
                let description = parameter["description"] as? String ?? ""
                if description.hasPrefix("A filter on the ") {
                    filters.append(String(description.dropFirst("A filter on the ".count).dropLast()))
                    continue
                }
                let required = parameter["required"] as? Bool == true ? " (required)" : ""
                let meaning = description.isEmpty && name == signatureHeader ? "The signature, as above." : description
                lines.append(
                    "| `\(name)`\(required) | \(parameter["in"] as? String ?? "") | \(cell(generic(meaning))) |")
            }
            if !filters.isEmpty {
                lines.append(
                    "| `{column}` | query | A filter on a configured column, one parameter per column (the example's: "
                        + cell(filters.joined(separator: ", ")) + "). |")
            }
            lines.append("")
        }
        if let body = operation["requestBody"] as? Object, let description = body["description"] as? String {
            lines += ["Request body: \(MarkdownText.escaped(description))", ""]
        }
        let responses = operation["responses"] as? Object ?? [:]
        var rows: [(status: String, text: String)] = []
        for (status, value) in responses {
            guard let response = resolve(value, in: components, kind: "responses") else { continue }
            if status == "421" {
                rows.append((status, row(status, response, note: "Without a token only: ")))
                // The document is the one of a daemon without a token; with one, 401 takes 421's place.
                let unauthorized: Object = ["$ref": "#/components/responses/Unauthorized"]
                if let response = resolve(unauthorized, in: components, kind: "responses") {
                    rows.append(("401", row("401", response, note: "With a token only: ")))
                }
            } else {
                rows.append((status, row(status, response)))
            }
        }
        lines += ["| Status | Answer | Headers |", "|---|---|---|"] + rows.sorted { $0.status < $1.status }.map(\.text)
        lines.append("")
        return lines
    }

    static func row(_ status: String, _ response: Object, note: String = "") -> String {
        var answer = note + cell(generic(response["description"] as? String ?? ""))
        let content = response["content"] as? Object ?? [:]
        for type in content.keys.sorted() {
            let schema = (content[type] as? Object)?["schema"] as? Object ?? [:]
            answer += " `\(type)`"
            if let name = schemaName(schema) {
                answer += ": " + link(name)
            } else if (schema["type"] as? String) == "array", let items = schema["items"] as? Object,
                let name = schemaName(items)
            {
                answer += ": an array of " + link(name)
            }
            if let description = schema["description"] as? String { answer += ": " + cell(generic(description)) }
            if !answer.hasSuffix(".") { answer += "." }
        }
        let headers = ((response["headers"] as? Object)?.keys.sorted() ?? []).map { "`\($0)`" }
        return "| \(status) | \(answer) | \(headers.joined(separator: ", ")) |"
    }

    /// The name a `$ref` gives a schema, with `{endpoint}` for an example endpoint's name.
    static func schemaName(_ schema: Object) -> String? {
        guard let reference = schema["$ref"] as? String else { return nil }
        return reference.split(separator: "/").last.map { generic(String($0)) }
    }

    /// A schema's name, linked to its section when the page has one (a record's schema is the example's columns).
    static func link(_ name: String) -> String {
        isListed(name) ? "[`\(name)`](#\(anchor(name)))" : "`\(name)`"
    }

    static func isListed(_ name: String) -> Bool { !name.hasSuffix("_record") && !name.hasSuffix("_row") }

    /// The heading anchor MkDocs gives a schema's heading: `{endpoint}_changes` is `endpoint_changes`.
    static func anchor(_ name: String) -> String {
        name.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// The headers every cached answer may carry, from `components.headers`.
    static func headers(_ components: Object) -> [String] {
        guard let headers = components["headers"] as? Object else { return [] }
        var lines = ["## Response headers", "", "| Header | Meaning |", "|---|---|"]
        for name in headers.keys.sorted() {
            let description = (headers[name] as? Object)?["description"] as? String ?? ""
            lines.append("| `\(name)` | \(cell(description)) |")
        }
        return lines + [""]
    }

    /// The answers' schemas, from `components.schemas`: each object's properties, but a record's, which are the
    /// example's columns.
    static func schemas(_ components: Object) -> [String] {
        guard let schemas = components["schemas"] as? Object else { return [] }
        var lines = ["## Schemas", ""]
        let names = schemas.keys.filter(isListed)
        for name in names.sorted(by: { generic($0) < generic($1) }) {
            guard let schema = schemas[name] as? Object else { continue }
            lines += ["### \(generic(name))", ""]
            if let description = schema["description"] as? String { lines += [cell(generic(description)), ""] }
            let properties = schema["properties"] as? Object ?? [:]
            let required = Set(schema["required"] as? [String] ?? [])
            guard !properties.isEmpty else { continue }
            lines += ["| Property | Type | Meaning |", "|---|---|---|"]
            for property in properties.keys.sorted() {
                let value = properties[property] as? Object ?? [:]
                let always = required.contains(property) ? "always" : "optional"
                lines.append(
                    "| `\(property)` | \(type(value)), \(always) | \(cell(generic(value["description"] as? String ?? ""))) |"
                )
            }
            lines.append("")
        }
        return lines
    }

    /// A property's type as the page writes it: `integer`, `string or null`, one of `a`, `b`, a schema's name.
    static func type(_ schema: Object) -> String {
        if let name = schemaName(schema) { return link(name) }
        if let constant = schema["const"] { return "`\(constant)`" }
        if let values = schema["enum"] as? [Any] { return "one of " + values.map { "`\($0)`" }.joined(separator: ", ") }
        if let types = schema["type"] as? [String] { return types.joined(separator: " or ") }
        if let type = schema["type"] as? String {
            if type == "array", let items = schema["items"] as? Object { return "array of " + Self.type(items) }
            return type
        }
        return "any"
    }

    /// An object, or the object a `$ref` names in `components[kind]`.
    static func resolve(_ value: Any, in components: Object, kind: String) -> Object? {
        guard let object = value as? Object else { return nil }
        guard let reference = object["$ref"] as? String else { return object }
        let name = reference.split(separator: "/").last.map(String.init) ?? ""
        return (components[kind] as? Object)?[name] as? Object
    }

    /// Text for a table cell: Markdown escaped, and no line breaks.
    static func cell(_ text: String) -> String {
        MarkdownText.escaped(text).replacingOccurrences(of: "\n", with: " ")
    }
}
