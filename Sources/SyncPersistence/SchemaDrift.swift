package import SyncDecoding

/// One entry of an endpoint's schema-drift journal (`syncd drift`, `GET /v1/endpoints/{name}/drift`): a field the
/// upstream sends that no column maps, a configured path that a whole run's records lacked, or a configured path
/// whose values came in a JSON type never seen there before.
public struct SchemaDrift: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A field in the records that no column's path names: new upstream, or never configured.
        case newField = "new_field"
        /// A configured column's path that no record of a run held.
        case missingPath = "missing_path"
        /// A configured column's path whose values came in a JSON type not seen there in earlier runs.
        case typeChange = "type_change"
    }

    /// The endpoint's name.
    public var endpoint: String
    /// What changed.
    public var kind: Kind
    /// The path in the record: `nickname`, `address.zip`.
    public var path: String
    /// For a type change, the types before and now (`number → string`); for a missing path, its column.
    public var detail: String?
    /// When a run first saw it, and last saw it (RFC 3339, UTC).
    public var firstSeen: String
    public var lastSeen: String
    /// The runs that saw it.
    public var count: Int
    /// One value it held, as JSON, cut at 120 bytes; nil for a missing path, for a field whose path names a secret
    /// (token, secret, password… in any of its keys: `auth.password`, `credentials.user`), and for an object or array
    /// holding such a key anywhere inside.
    public var example: String?

    package init(
        endpoint: String, kind: Kind, path: String, detail: String?, firstSeen: String, lastSeen: String, count: Int,
        example: String?
    ) {
        self.endpoint = endpoint
        self.kind = kind
        self.path = path
        self.detail = detail
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.count = count
        self.example = example
    }
}

/// What one run adds to the journal: its observations, from the run's ``SchemaTally``, and the JSON types to keep
/// for each configured path. The one computation for every store; each store only reads and writes its rows.
package struct DriftObservations: Sendable {
    /// One observation of the run.
    package struct Observation: Sendable, Hashable {
        package var kind: SchemaDrift.Kind
        package var path: String
        package var detail: String?
        package var example: String?

        /// Its words in a log: `new field "nickname"`, `type change at "id" (number → string)`.
        package var sentence: String {
            switch kind {
            case .newField: "new field \"\(path)\""
            case .missingPath: "no record holds \"\(path)\""
            case .typeChange: "type change at \"\(path)\" (\(detail ?? ""))"
            }
        }
    }

    /// The most `new_field` entries an endpoint's journal keeps: 1,000. A run notes at most 256
    /// (``SchemaTally/maxFields``), so an upstream inventing keys fills it in four runs, and from then on each run's
    /// fields push out the entries seen least recently: the journal shows the current drift, and one endpoint's
    /// stays under about 400 kB (a path of at most 256 bytes and an example of 120 per entry). No real schema comes
    /// near it: an object no column reaches into is one field. The other kinds need no bound: there is at most one
    /// `missing_path` and one `type_change` per configured column.
    package static let maxNewFields = 1_000

    /// The order in which `new_field` entries are kept, as an `ORDER BY` for each store: the most recently seen
    /// first, then by path byte by byte (`collation`: SQLite's `BINARY`, PostgreSQL's `"C"`). Those past
    /// ``maxNewFields`` in it go.
    package static func newFieldOrder(collation: String) -> String {
        "last_seen DESC, path COLLATE \(collation)"
    }

    package var observations: [Observation] = []
    /// The configured columns' paths, as the journal writes them.
    private var configuredPaths: Set<String> = []
    private var configuredJSONPaths: [JSONPath] = []
    /// The JSON types seen so far at each configured path, as bits of ``SchemaTally/JSONTypes``: those stored with
    /// this run's added.
    package var types: [String: Int] = [:]

    /// The run's observations. `storedTypes` are the types kept by earlier runs (none on the first): a type change
    /// is a type not among them; `null` is never one.
    package init(_ tally: SchemaTally, columns: [ColumnSpec], storedTypes: [String: Int]) {
        configuredPaths = Set(columns.map(\.path.description))
        configuredJSONPaths = columns.map(\.path)
        // Two spellings of one key (`"name"`, `"n\u0061me"`) are one field.
        var paths: Set<String> = []
        for field in tally.fields.values.sorted(by: { $0.path < $1.path }) where paths.insert(field.path).inserted {
            observations.append(Observation(kind: .newField, path: field.path, example: field.example))
        }
        for (index, column) in columns.enumerated() where index < tally.present.count {
            let path = column.path.description
            if tally.records > 0, tally.present[index] == 0 {
                observations.append(Observation(kind: .missingPath, path: path, detail: "column \(column.name)"))
                continue
            }
            let now = tally.types[index].subtracting(.null)
            let before = SchemaTally.JSONTypes(rawValue: storedTypes[path] ?? 0).subtracting(.null)
            types[path] = before.union(now).rawValue
            let added = now.subtracting(before)
            guard !before.isEmpty, !added.isEmpty else { continue }
            let first = SchemaTally.JSONTypes(rawValue: added.rawValue & -added.rawValue)
            observations.append(
                Observation(
                    kind: .typeChange, path: path,
                    detail: before.names.joined(separator: "/") + " → " + now.names.joined(separator: "/"),
                    example: SchemaTally.isSecret(column.path) || SchemaTally.isSecret(column.name)
                        ? nil : tally.example(column: index, type: first)))
        }
    }

    /// The paths of the `new_field` entries a run reads back from the journal, so that what it reads is bounded by
    /// the run and the configuration, not by the journal: the run's fields (to tell which are new), and every
    /// configured path and the paths of the objects it goes through (whose entries a column now maps). Entries of
    /// the other kinds are all read: one per configured column at most, and those of columns since removed, which
    /// the run drops.
    package var readBackPaths: [String] {
        var paths = Set(observations.lazy.filter { $0.kind == .newField }.map(\.path))
        for path in configuredJSONPaths {
            for end in path.components.indices {
                paths.insert(JSONPath(components: Array(path.components[...end])).description)
            }
        }
        return paths.sorted()
    }

    /// ``readBackPaths`` as a JSON array, the one parameter each store's query reads them from (SQLite's
    /// `json_each`, PostgreSQL's `jsonb_array_elements_text`).
    package var readBackPathsJSON: String {
        "[" + readBackPaths.map(ColumnValue.jsonString).joined(separator: ",") + "]"
    }

    /// Whether a journal entry no longer stands for the configuration: a new field that a column now maps (or goes
    /// inside of), or a missing path or type change of a path no column reads any more. The store drops it.
    package func isResolved(kind: SchemaDrift.Kind, path: String) -> Bool {
        switch kind {
        case .newField:
            configuredPaths.contains { $0 == path || $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") }
        case .missingPath, .typeChange:
            !configuredPaths.contains(path)
        }
    }
}
