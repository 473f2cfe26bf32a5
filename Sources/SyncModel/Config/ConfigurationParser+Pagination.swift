import SyncDecoding

extension ConfigurationParser {
    private static let paginationKinds = ["link", "cursor", "next_url", "page", "offset"]
    /// Keys every kind takes besides `type`.
    private static let sharedPaginationKeys: Set<String> = [
        "max_pages", "has_more_path", "last_page_path", "total_path",
    ]

    /// The keys each kind takes besides `type` and the shared ones: (required, optional).
    private static func paginationKeys(for kind: String) -> (required: [String], optional: [String]) {
        switch kind {
        case "cursor": (["cursor_path"], ["param", "body_path", "from", "repeat_cursor"])
        case "next_url": (["path"], [])
        case "page": (["param"], ["start", "size_param", "size"])
        case "offset": (["param", "limit"], ["limit_param"])
        default: ([], [])
        }
    }

    /// `pagination = { type = "link" }` and the other kinds, each with its required keys and nothing unknown.
    mutating func pagination(_ field: Field) -> SyncEndpoint.Pagination? {
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
        var optionFields: [String: Field] = [:]
        for option in options where option.key != "type" {
            guard ConfigurationKeys.isKnown(option.key, in: .pagination),
                Self.sharedPaginationKeys.contains(option.key) || keys.required.contains(option.key)
                    || keys.optional.contains(option.key)
            else {
                report("pagination: unknown key \"\(option.key)\" for type \"\(kind)\"", at: option)
                continue
            }
            optionFields[option.key] = option
            read(option, into: &values)
        }
        for key in keys.required where table[key] == nil {
            report("pagination: type \"\(kind)\" needs \"\(key)\"", at: field)
        }
        // A missing key was reported; a stand-in lets the rules check the keys that are there.
        let param = values.texts["param"] ?? "-"
        var pagination: SyncEndpoint.Pagination =
            switch kind {
            case "link": .link()
            case "cursor":
                .cursor(
                    path: values.texts["cursor_path"] ?? "x", param: values.texts["param"],
                    bodyPath: values.texts["body_path"], from: values.cursorSource,
                    repeatCursor: values.repeatCursor)
            case "next_url": .nextURL(path: values.texts["path"] ?? "x")
            case "page":
                .page(
                    param: param, start: values.numbers["start"] ?? 1, size: values.numbers["size"],
                    sizeParam: values.texts["size_param"])
            default:
                .offset(param: param, limit: values.numbers["limit"] ?? 1, limitParam: values.texts["limit_param"])
            }
        pagination.maxPages = values.numbers["max_pages"] ?? pagination.maxPages
        pagination.hasMorePath = values.texts["has_more_path"]
        pagination.lastPagePath = values.texts["last_page_path"]
        pagination.totalPath = values.texts["total_path"]
        var found: [OptionProblem] = []
        _ = pagination.compile(problems: &found)
        for problem in found {
            report(problem.sentence, at: problem.key.flatMap { optionFields[$0] } ?? field)
        }
        guard problems.count == problemCount else { return nil }
        return pagination
    }

    /// Refuses a pagination path inside the records array (`data[9].id` when `records = "data"`): the decoder
    /// never captures values there, so the walk would stop at the first page.
    ///
    /// - Parameter path: where `pagination` is set: in the endpoint or in `[defaults]`.
    mutating func checkPaginationPaths(
        _ pagination: PaginationConfiguration, records: JSONPath, at path: [TOMLDocument.Segment], context: String
    ) {
        for problem in pagination.problems(records: records) {
            report(problem.sentence, at: path + [.key(problem.key ?? "")], context: context)
        }
    }

    /// Reads one pagination option's value into `values`, reporting a value of the wrong type; the pagination's
    /// rules check the rest.
    private mutating func read(_ option: Field, into values: inout PaginationValues) {
        switch option.key {
        case "from":
            switch option.value.string {
            case "body": values.cursorSource = .body
            case "last_record": values.cursorSource = .lastRecord
            default:
                report(
                    "pagination: from must be \"body\" (a value outside the records) or \"last_record\" (a value "
                        + "of each page's last record)", at: option)
            }
        case "repeat_cursor":
            guard let flag = option.value.bool else {
                report(
                    "pagination: repeat_cursor must be true (the cursor may stay the same from page to page) or false",
                    at: option)
                return
            }
            values.repeatCursor = flag
        case "cursor_path", "path", "has_more_path", "last_page_path", "total_path", "body_path":
            guard let text = option.value.string else {
                report(
                    "pagination: \(option.key) must be a JSON path such as \"data.items\" (\"$\" is the root)",
                    at: option)
                return
            }
            values.texts[option.key] = text
        case "param", "size_param", "limit_param":
            // Not a string reads as empty, which the rules refuse in the same words.
            values.texts[option.key] = option.value.string ?? ""
        default:  // start, max_pages, size, limit
            // Not an integer reads as out of range, which the rules refuse in the same words.
            values.numbers[option.key] = option.value.int ?? Int.min
        }
    }
}

/// The values of a pagination table, read before its kind is assembled.
private struct PaginationValues {
    var texts: [String: String] = [:]
    var numbers: [String: Int] = [:]
    var cursorSource = SyncEndpoint.Pagination.CursorSource.body
    var repeatCursor = false
}
