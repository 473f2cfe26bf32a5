import SyncDecoding

// A child endpoint's options (`parent`, `parent_columns`, `children`, `max_parents`, `parent_concurrency`) and the
// rules one endpoint can check alone; FanOutLink checks those that need the parent.

extension SyncEndpoint {
    /// Which parents a run of a child endpoint walks (`children`).
    public struct ChildSelection: Sendable, Hashable, CustomStringConvertible {
        /// `"all"`, `"changed"`.
        public let name: String

        /// Every parent, up to ``SyncEndpoint/maxParents`` a run: an unchanged child set costs a 304.
        public static let all = ChildSelection(name: "all")
        /// Only parents whose row changed since their children were last walked (the parent's `_version`), and new
        /// ones: for APIs whose parent row reflects its children's changes (`updated_at`, `pushed_at`).
        public static let changed = ChildSelection(name: "changed")

        /// The selection named `name` in syncd.toml; nil for another name.
        public init?(named name: String) {
            guard name == "all" || name == "changed" else { return nil }
            self.name = name
        }

        private init(name: String) {
            self.name = name
        }

        public var description: String { name }
    }

    /// Whether the endpoint fans out from another's rows (it has a ``parent``).
    public var isChild: Bool { parent != nil }

    /// The rules of the child options that need no other endpoint.
    var fanOutProblems: [String] {
        let templateProblems = ChildRequest.problems(of: self).map(\.sentence)
        guard parent != nil else {
            var problems = templateProblems
            for (key, isSet) in [
                ("parent_columns", !parentColumns.isEmpty), ("children", children != .all),
            ] where isSet {
                problems.append("\"\(key)\" is for an endpoint with a \"parent\"")
            }
            return problems
        }
        var problems: [String] = []
        if records == nil { problems.append("a document endpoint (no \"records\") takes no \"parent\"") }
        return templateProblems + problems + parentColumnNameProblems
    }

    /// The parent columns as columns of the table, after `own`: typed as text until ``FanOutLink`` gives each its
    /// parent column's type. A name that is not an identifier, or is one of `own`, is a problem reported with them.
    func parentColumnSpecs(after own: [ColumnSpec]) -> [ColumnSpec] {
        parentColumns.keys.sorted().compactMap { name in
            guard NameRules.identifierProblem(name, kind: "column name") == nil,
                !own.contains(where: { $0.name == name })
            else { return nil }
            return ColumnSpec(name: name, path: .root, type: .text, required: false)
        }
    }

    /// The problems of ``parentColumns`` that need no parent: a name that is not an identifier, or names a column
    /// of the endpoint's own.
    var parentColumnNameProblems: [String] {
        parentColumns.keys.sorted().compactMap { name in
            if let problem = NameRules.identifierProblem(name, kind: "column name") {
                return "parent_columns: \(problem)"
            }
            if columns.contains(where: { $0.name == name }) {
                return "parent_columns: \"\(name)\" is also a column of the endpoint's own"
            }
            return nil
        }
    }
}
