import FoundationEssentials
import SyncDecoding
internal import SyncSQLite

extension ConfigurationParser {
    /// Reads one `[[endpoint]]` into a ``SyncEndpoint`` that starts from `defaults`, and compiles it; nil when it has
    /// problems (all reported).
    mutating func endpoint(_ table: TOMLTable, position: Int, defaults: SyncEndpoint) -> EndpointConfiguration? {
        let path: [TOMLDocument.Segment] = [.key("endpoint"), .index(position)]
        let rawName = table["name"]?.string
        let context = rawName.map { "[[endpoint]] \"\($0)\"" } ?? "[[endpoint]] #\(position + 1)"
        let scope = Scope(path: path, context: context)
        let problemCount = problems.count

        var declared = defaults
        var name: SQLIdentifier?
        var url: String?
        var records: JSONPath?
        var documentOnlyViolations: [Field] = []
        var primaryKeyField: Field?
        var columnsField: Field?
        var requestFields = RequestFields()
        let tableFields = fields(of: table, in: scope)
        for field in tableFields {
            guard ConfigurationKeys.isKnown(field.key, in: .endpoint) else {
                reportUnknownKey(field)
                continue
            }
            if requestFields.take(field) { continue }
            if applySetting(field, to: &declared) {
                if ["mode", "pagination", "incremental"].contains(field.key) { documentOnlyViolations.append(field) }
                continue
            }
            switch field.key {
            case "name":
                name = endpointName(field)
            case "url":
                url = self.url(field)
            case "records":
                records = jsonPath(field)
                declared.records = field.value.string
            case "primary_key":
                primaryKeyField = field
                documentOnlyViolations.append(field)
            case "columns":
                columnsField = field
                documentOnlyViolations.append(field)
            case "concurrency":
                report(
                    "\"concurrency\" is only valid in [defaults]"
                        + (table["parent"] == nil ? "" : ": a child endpoint's is \"parent_concurrency\""), at: field)
            case "stop_grace":
                report("\"stop_grace\" is only valid in [defaults]: it is the daemon's, for every endpoint", at: field)
            case "parent", "parent_columns", "children", "max_parents", "parent_concurrency":
                applyFanOutSetting(field, to: &declared)
            default:
                reportUnknownKey(field)
            }
        }
        reportBounds(of: declared, in: tableFields)
        if table["name"] == nil { report("missing required key \"name\"", at: path, context: context) }
        if table["url"] == nil { report("missing required key \"url\"", at: path, context: context) }

        let paginationPath: [TOMLDocument.Segment] =
            table["pagination"] == nil ? [.key("defaults"), .key("pagination")] : path + [.key("pagination")]
        // A document is one body: pagination set in [defaults] is for the collections.
        var ignored: [OptionProblem] = []  // reported where `pagination` was read
        if table["records"] == nil { (declared.pagination, declared.incremental) = (nil, nil) }
        let pagination = declared.pagination?.compile(problems: &ignored)
        let request = self.request(
            requestFields, pagination: pagination, paginationPath: paginationPath, context: context)
        var columns: [ColumnSpec] = []
        if table["records"] == nil {
            for field in documentOnlyViolations {
                report("a document endpoint (no \"records\") takes no \"\(field.key)\"", at: field)
            }
            checkDocumentStatuses(of: &declared, in: table, scope: scope)
        } else {
            if let columnsField {
                let read = self.columns(columnsField, endpoint: rawName ?? "#\(position + 1)")
                (columns, declared.columns) = (read.map(\.spec), read.map(\.declared))
            }
            if let primaryKeyField {
                // Columns that are not a table were reported already: their names are unknown.
                var names: Set<String>? = []
                if let columnsField { names = columnsField.value.table.map { Set($0.keys) } }
                // A child endpoint's key may name its parent columns.
                let parentColumns = declared.parent == nil ? [] : declared.parentColumnSpecs(after: columns)
                names = names?.union(parentColumns.map(\.name))
                declared.primaryKey = self.primaryKey(
                    primaryKeyField, columns: columns + parentColumns, declared: names)
            } else {
                report("missing \"primary_key\": an endpoint with \"records\" needs one", at: path, context: context)
            }
            if let pagination, let records {
                checkPaginationPaths(pagination, records: records, at: paginationPath, context: context)
            }
            // Resolved against columns that parsed cleanly only: a broken column would make a second problem here.
            if let value = declared.incremental, let field = origin(of: "incremental", in: table, scope: scope),
                problems.count == problemCount
            {
                resolve(value, at: field, columns: columns, mode: declared.upsertOnly ? .incremental : .snapshot)
            }
        }

        guard problems.count == problemCount, let name, let url, let request else { return nil }
        (declared.name, declared.url, declared.method, declared.body) = (name.name, url, request.method, request.body)
        // Every rule compile applies was checked above, each problem reported at its line; one it still finds (a
        // value inherited from a [defaults] already refused, or a rule the reader misses) is reported here.
        var unreported: [String] = []
        guard var compiled = declared.compile(into: &unreported, checksDocumentKeys: false) else {
            if problems.isEmpty { for problem in unreported { report(problem, at: path, context: context) } }
            return nil
        }
        compiled.line = document.line(of: path) ?? 0
        return compiled
    }

    private mutating func endpointName(_ field: Field) -> SQLIdentifier? {
        guard let text = field.value.string else {
            report("name must be a string", at: field)
            return nil
        }
        if let problem = NameRules.endpointProblem(text) {
            report(problem, at: field)
            return nil
        }
        return try? SQLIdentifier(validating: text)
    }

    /// A name that must be an SQL identifier: the endpoint's or a column's.
    mutating func identifier(_ text: String, kind: String, at field: Field) -> SQLIdentifier? {
        if let problem = NameRules.identifierProblem(text, kind: kind) {
            report(problem, at: field)
            return nil
        }
        return try? SQLIdentifier(validating: text)
    }

    /// An absolute http, https or file URL. The URL itself is never quoted: it may carry a key in its query.
    private mutating func url(_ field: Field) -> String? {
        guard let text = field.value.string, URLRules.isValid(ChildRequest.sample(text)) else {
            report(URLRules.expected, at: field)
            return nil
        }
        return text
    }

    /// A JSON path as a string (`records`, a column's `path`).
    mutating func jsonPath(_ field: Field, prefix: String = "") -> JSONPath? {
        guard let text = field.value.string else {
            report("\(prefix)\(field.key) must be a JSON path such as \"data.items\" (\"$\" is the root)", at: field)
            return nil
        }
        do {
            return try JSONPath(parsing: text)
        } catch {
            report("\(prefix)\(field.key): \(error)", at: field)
            return nil
        }
    }

    /// `primary_key`: one column name or an array of them, each a configured column; returns the names. A name in
    /// `declared` (all when nil) whose column has problems is not reported again.
    private mutating func primaryKey(_ field: Field, columns: [ColumnSpec], declared: Set<String>?) -> [String] {
        let names: [String]?
        if let name = field.value.string {
            names = [name]
        } else if let array = field.value.array {
            let strings = array.compactMap(\.string)
            names = strings.count == array.count && !strings.isEmpty ? strings : nil
        } else {
            names = nil
        }
        guard let names else {
            report("primary_key must be a column name or an array of column names", at: field)
            return []
        }
        // Declared columns that did not parse were reported (all of them when `declared` is unknown).
        let unchecked = declared.map { $0.subtracting(columns.map(\.name)) } ?? Set(names)
        let (_, problems) = EndpointRules.primaryKey(names, columns: columns, unchecked: unchecked)
        for problem in problems { report(problem, at: field) }
        return names
    }
}

extension ConfigurationParser {
    /// Reads one of a child endpoint's keys (`parent`, `parent_columns`, `children`, `max_parents`,
    /// `parent_concurrency`) into `endpoint`; the rules that need the parent are checked once every endpoint is read
    /// (``FanOutLink``).
    mutating func applyFanOutSetting(_ field: Field, to endpoint: inout SyncEndpoint) {
        switch field.key {
        case "parent":
            if let name = field.value.string, NameRules.endpointProblem(name) == nil {
                endpoint.parent = name
            } else {
                report("parent must be the name of another [[endpoint]] of this file", at: field)
            }
        case "parent_columns":
            guard let table = field.value.table else {
                report(
                    "parent_columns must be a table of column = \"parent column\", such as { repo_id = \"id\" }",
                    at: field)
                return
            }
            var columns: [String: String] = [:]
            for key in table.keys {
                guard let source = table[key]?.string else {
                    report("parent_columns: \(key) must be the name of a column of the parent, as a string", at: field)
                    continue
                }
                if let problem = NameRules.identifierProblem(key, kind: "column name") {
                    report("parent_columns: \(problem)", at: field)
                    continue
                }
                columns[key] = source
            }
            endpoint.parentColumns = columns
        case "children":
            if let selection = field.value.string.flatMap(SyncEndpoint.ChildSelection.init(named:)) {
                endpoint.children = selection
            } else {
                report("children must be \"all\" or \"changed\"", at: field)
            }
        case "max_parents":
            // Not an integer reads as out of range, which the rule refuses in the same words.
            endpoint.maxParents = field.value.int ?? Int.min
        case "parent_concurrency":
            endpoint.parentConcurrency = field.value.int ?? Int.min
        default:
            reportUnknownKey(field)
        }
    }
}
