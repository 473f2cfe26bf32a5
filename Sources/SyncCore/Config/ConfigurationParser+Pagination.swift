extension ConfigurationParser {
    private static let paginationKinds = ["link", "cursor", "next_url", "page", "offset"]
    /// Keys every kind takes besides `type`.
    private static let sharedPaginationKeys: Set<String> = ["max_pages", "has_more_path", "total_path"]

    /// The keys each kind takes besides `type` and the shared ones: (required, optional).
    private static func paginationKeys(for kind: String) -> (required: [String], optional: [String]) {
        switch kind {
        case "cursor": (["cursor_path", "param"], [])
        case "next_url": (["path"], [])
        case "page": (["param"], ["start", "size_param", "size"])
        case "offset": (["param", "limit"], ["limit_param"])
        default: ([], [])
        }
    }

    /// `pagination = { type = "link" }` and the other kinds, each with its required keys and nothing unknown.
    mutating func pagination(_ field: Field) -> PaginationConfiguration? {
        guard let table = field.value.table else {
            report("pagination must be an inline table such as { type = \"link\" }", at: field)
            return nil
        }
        let options = fields(of: table, in: Scope(path: field.path, context: field.scope.context))
        guard let kind = table["type"]?.string, Self.paginationKinds.contains(kind) else {
            if table["type"] == nil {
                report("pagination: missing \"type\" (link, cursor, next_url, page or offset)", at: field)
            } else {
                report("pagination: type must be \"link\", \"cursor\", \"next_url\", \"page\" or \"offset\"", at: field)
            }
            return nil
        }
        let keys = Self.paginationKeys(for: kind)
        let problemCount = problems.count
        var values = PaginationValues()
        for option in options where option.key != "type" {
            guard
                Self.sharedPaginationKeys.contains(option.key) || keys.required.contains(option.key)
                    || keys.optional.contains(option.key)
            else {
                report("pagination: unknown key \"\(option.key)\" for type \"\(kind)\"", at: option)
                continue
            }
            read(option, into: &values)
        }
        for key in keys.required where table[key] == nil {
            report("pagination: type \"\(kind)\" needs \"\(key)\"", at: field)
        }
        if kind == "page", table["size_param"] != nil, table["size"] == nil {
            report("pagination: \"size_param\" needs \"size\", the number of records a page holds", at: field)
        }
        guard problems.count == problemCount else { return nil }
        let paginationKind: PaginationConfiguration.Kind
        switch kind {
        case "link":
            paginationKind = .link
        case "cursor":
            guard let path = values.paths["cursor_path"], let param = values.param else { return nil }
            paginationKind = .cursor(path: path, param: param)
        case "next_url":
            guard let path = values.paths["path"] else { return nil }
            paginationKind = .nextURL(path: path)
        case "page":
            guard let param = values.param else { return nil }
            paginationKind = .page(
                param: param, start: values.numbers["start"] ?? 1, sizeParam: values.names["size_param"],
                size: values.numbers["size"])
        default:
            guard let param = values.param, let limit = values.numbers["limit"] else { return nil }
            paginationKind = .offset(param: param, limitParam: values.names["limit_param"], limit: limit)
        }
        return PaginationConfiguration(
            kind: paginationKind, maxPages: values.numbers["max_pages"] ?? PaginationConfiguration.defaultMaxPages,
            hasMorePath: values.paths["has_more_path"], totalPath: values.paths["total_path"])
    }

    /// Refuses a pagination path inside the records array (`data[9].id` when `records = "data"`): the decoder
    /// never captures values there, so the walk would stop at the first page.
    ///
    /// - Parameter path: where `pagination` is set: in the endpoint or in `[defaults]`.
    mutating func checkPaginationPaths(
        _ pagination: PaginationConfiguration, records: JSONPath, at path: [TOMLDocument.Segment], context: String
    ) {
        for (key, value) in pagination.keyedPaths where value.components.starts(with: records.components) {
            report(
                "pagination: \(key) \"\(value)\" lies inside the records array (\"\(records)\"); "
                    + "it must name a value outside the records, such as \"meta.next\"",
                at: path + [.key(key)], context: context)
        }
    }

    /// Reads one pagination option into `values`, reporting a bad value.
    private mutating func read(_ option: Field, into values: inout PaginationValues) {
        switch option.key {
        case "cursor_path", "path", "has_more_path", "total_path":
            guard let path = jsonPath(option, prefix: "pagination: ") else { return }
            guard !path.components.isEmpty else {
                report("pagination: \(option.key) must name a value inside the body, not \"$\"", at: option)
                return
            }
            values.paths[option.key] = path
        case "param", "size_param", "limit_param":
            guard let name = option.value.string, !name.isEmpty, !HTTPHeaderSyntax.hasForbiddenByte(name) else {
                report("pagination: \(option.key) must be the name of a query parameter", at: option)
                return
            }
            if option.key == "param" { values.param = name } else { values.names[option.key] = name }
        case "start":
            let range = ConfigurationBounds.paginationStart
            if let number = wholeNumber(option, in: range, what: "pagination: start") {
                values.numbers["start"] = number
            }
        case "max_pages":
            let range = ConfigurationBounds.maxPages
            if let number = wholeNumber(option, in: range, what: "pagination: max_pages") {
                values.numbers["max_pages"] = number
            }
        default:  // size, limit
            let range = ConfigurationBounds.pageSize
            if let number = wholeNumber(option, in: range, what: "pagination: \(option.key)") {
                values.numbers[option.key] = number
            }
        }
    }
}

/// The values of a pagination table, read before its kind is assembled.
private struct PaginationValues {
    var param: String?
    var names: [String: String] = [:]
    var paths: [String: JSONPath] = [:]
    var numbers: [String: Int] = [:]
}
