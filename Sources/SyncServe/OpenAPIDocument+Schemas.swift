internal import SyncCore

/// The schemas of `/openapi.json`: the ones every configuration has (problems, health, endpoint states, drift) and
/// each collection's record, row and change-feed schemas, built from its columns.
extension OpenAPIDocument {
    static let sharedSchemas: [String: JSONValue] = [
        "Problem": .object([
            "type": "object",
            "description": "RFC 9457; `message` and `code` repeat the sentence and the kind for PostgREST clients.",
            "required": .array(["type", "title", "status", "detail"]),
            "properties": .object([
                "type": string, "title": string, "status": .object(["type": "integer"]), "detail": string,
                "message": string, "code": string,
                "parameter": .object(["type": "string", "description": "The query parameter at fault (400)."]),
            ]),
        ]),
        "Health": .object([
            "type": "object",
            "required": .array(["status", "endpoints", "stale"]),
            "properties": .object([
                "status": .object(["const": "ok"]), "endpoints": .object(["type": "integer", "minimum": 0]),
                "stale": .object(["type": "integer", "minimum": 0]),
            ]),
        ]),
        "EndpointState": .object([
            "type": "object",
            "required": .array(["name", "kind", "url", "version", "records", "fresh", "stale_reason"]),
            "properties": .object([
                "name": string, "kind": .object(["enum": .array(["collection", "document"])]),
                "url": .object(["type": "string", "description": "Secrets in it are REDACTED."]),
                "version": .object(["type": "integer", "minimum": 0]),
                "records": .object(["type": "integer", "minimum": 0]), "fresh": .object(["type": "boolean"]),
                "stale_reason": nullableString, "age": .object(["type": "integer"]),
                "ttl": .object(["type": "integer"]), "changed_at": nullableString,
                "last_success_at": nullableString, "last_attempt_at": nullableString,
                "last_status": .object(["type": .array(["integer", "null"])]), "last_error": nullableString,
                "consecutive_failures": .object(["type": "integer", "minimum": 0]), "next_due_at": nullableString,
                "schedule_reason": .object([
                    "type": .array(["string", "null"]),
                    "description": .string(
                        "Why the endpoint is polled next at next_due_at: interval, max-age: fresh for 58m, no-cache: "
                            + "min_interval, backoff after 3 failures, Retry-After…"),
                ]),
                "node": nullableString, "etag": string,
                "token_renewed_at": .object([
                    "type": .array(["string", "null"]),
                    "description":
                        "When the endpoint's OAuth2 token was last renewed (OAuth2 auth only; never the token).",
                ]),
                "token_expires_at": .object([
                    "type": .array(["string", "null"]),
                    "description": "When the endpoint's OAuth2 token expires (OAuth2 auth only).",
                ]),
                "parents": .object(["$ref": "#/components/schemas/ParentCounts"]),
                "running": .object(["$ref": "#/components/schemas/RunningSync"]),
            ]),
        ]),
        "ParentCounts": .object([
            "type": "object",
            "description": .string(
                "What the last run of an endpoint with a parent did per parent row; absent for an endpoint without "
                    + "a parent, before its first run, and after a run that failed before or after its walks."),
            "required": .array(["walked", "not_modified", "empty", "skipped", "failed", "left"]),
            "properties": .object([
                "walked": .object([
                    "type": "integer", "minimum": 0, "description": "Parents whose children were asked for (304s too).",
                ]),
                "not_modified": .object([
                    "type": "integer", "minimum": 0, "description": "Walked parents that answered 304.",
                ]),
                "empty": .object([
                    "type": "integer", "minimum": 0,
                    "description": "Walked parents with no child: an empty answer, or a status on_status makes empty.",
                ]),
                "skipped": .object([
                    "type": "integer", "minimum": 0,
                    "description": .string(
                        "Parents whose stored children stay unasked: unchanged (children = \"changed\"), "
                            + "a row that cannot make the request, or a status on_status skips."),
                ]),
                "failed": .object([
                    "type": "integer", "minimum": 0,
                    "description": "1 when a parent's walk failed the run (nothing of it was stored), else 0.",
                ]),
                "left": .object([
                    "type": "integer", "minimum": 0, "description": "Parents beyond max_parents, left for later runs.",
                ]),
            ]),
        ]),
        "RunningSync": .object([
            "type": "object",
            "description": "How far the daemon's sync of the endpoint has come; present only while it runs.",
            "required": .array([
                "since", "pages", "records", "bytes", "total_records", "total_pages", "parents_done", "parents_total",
            ]),
            "properties": .object([
                "since": .object(["type": "string", "description": "When the run started (RFC 3339, UTC)."]),
                "pages": .object(["type": "integer", "minimum": 0]),
                "records": .object([
                    "type": .array(["integer", "null"]), "minimum": 0,
                    "description": "Records on the pages fetched; null when the walk does not count them.",
                ]),
                "bytes": .object(["type": "integer", "minimum": 0]),
                "total_records": .object([
                    "type": .array(["integer", "null"]), "minimum": 0,
                    "description": "The records the upstream announces at total_path.",
                ]),
                "total_pages": .object([
                    "type": .array(["integer", "null"]), "minimum": 0,
                    "description": "The pages a Link rel=\"last\" announces.",
                ]),
                "parents_done": .object([
                    "type": .array(["integer", "null"]), "minimum": 0,
                    "description": "Parent rows whose children were walked, for an endpoint with a parent.",
                ]),
                "parents_total": .object(["type": .array(["integer", "null"]), "minimum": 0]),
            ]),
        ]),
        "Drift": .object([
            "type": "object",
            "required": .array(["endpoint", "drift"]),
            "properties": .object([
                "endpoint": string,
                "drift": .object([
                    "type": "array",
                    "items": .object([
                        "type": "object",
                        "required": .array(["kind", "path", "first_seen", "last_seen", "count"]),
                        "properties": .object([
                            "kind": .object(["enum": .array(SchemaDrift.Kind.allCases.map { .string($0.rawValue) })]),
                            "path": string, "detail": nullableString, "first_seen": string, "last_seen": string,
                            "count": .object(["type": "integer", "minimum": 1]), "example": nullableString,
                        ]),
                    ]),
                ]),
            ]),
        ]),
    ]

    static let string: JSONValue = .object(["type": "string"])
    static let nullableString: JSONValue = .object(["type": .array(["string", "null"])])

    /// A record as received: its configured columns where their paths put them, anything else besides.
    static func recordSchema(_ endpoint: SyncCache.Endpoint) -> JSONValue {
        var root = SchemaNode()
        for spec in endpoint.columns {
            // A primary-key column is required whatever its `required` says.
            let required = spec.required || endpoint.primaryKey.contains(spec.name)
            // A compiled column's path was parsed once already: it parses again.
            let path = (try? JSONPath(parsing: spec.path ?? spec.name))?.components ?? [.key(spec.name)]
            root.insert(
                path[...], schema: receivedSchema(spec, required: required, strict: endpoint.strict),
                required: required)
        }
        return root.schema(description: "A record of \(endpoint.name), as the upstream sent it.")
    }

    /// An object of selected columns (`select=a,b`), typed as stored.
    static func rowSchema(_ endpoint: SyncCache.Endpoint) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for spec in endpoint.columns {
            properties[spec.name] = storedSchema(spec)
        }
        return .object([
            "type": "object",
            "description": .string("The selected columns of a record of \(endpoint.name), typed as stored."),
            "properties": .object(properties),
            "additionalProperties": false,
        ])
    }

    static func changesSchema(_ endpoint: SyncCache.Endpoint) -> JSONValue {
        let name = endpoint.name
        let keyPart: JSONValue = .object(["type": .array(["string", "integer", "number", "boolean"])])
        let key: JSONValue =
            endpoint.primaryKey.count == 1 ? keyPart : .object(["type": "array", "items": keyPart])
        return .object([
            "type": "object",
            "required": .array(["version", "changed", "deleted"]),
            "properties": .object([
                "version": .object(["type": "integer", "minimum": 0]),
                "changed": .object(["type": "array", "items": ref("\(name)_record")]),
                "deleted": .object(["type": "array", "items": key]),
                "next": .object([
                    "type": "string", "description": "The rest of a capped answer: fetch it, and its `next`.",
                ]),
            ]),
        ])
    }

    /// How a column's value may look in a record as received: what the decoder accepts for a required column (it
    /// rejects the record otherwise); anything for an optional one, whose mistyped value is kept as received.
    static func receivedSchema(_ spec: SyncColumn, required: Bool, strict: Bool) -> JSONValue {
        let description: JSONValue = .string(
            "The \(required ? "required" : "optional") \(spec.type.rawValue) column \(spec.name).")
        guard required else { return .object(["description": description]) }
        let types: [JSONValue] =
            switch (spec.type, strict) {
            case (.integer, true): ["integer"]
            case (.integer, false): ["integer", "string"]
            case (.real, true): ["number"]
            case (.real, false): ["number", "string"]
            case (.text, true): ["string"]
            case (.text, false): ["string", "number", "boolean"]
            case (.boolean, true): ["boolean"]
            case (.boolean, false): ["boolean", "string", "integer"]
            case (.timestamp, true): ["string"]
            case (.timestamp, false): ["string", "number"]
            case (.json, _): []
            }
        guard !types.isEmpty else { return .object(["description": description]) }
        return .object(["description": description, "type": .array(types)])
    }

    /// A column's value as stored and selected: its JSON type, or null.
    static func storedSchema(_ spec: SyncColumn) -> JSONValue {
        let type: String? =
            switch spec.type {
            case .integer: "integer"
            case .real: "number"
            case .text, .timestamp: "string"
            case .boolean: "boolean"
            case .json: nil
            }
        guard let type else { return .object(["description": .string("The json column \(spec.name).")]) }
        return .object(["type": .array([.string(type), "null"])])
    }
}

/// The nested objects a record's column paths make: `address.geo.lat` is a property of a property of a property.
private struct SchemaNode {
    var properties: [String: SchemaNode] = [:]
    var leaf: JSONValue?
    /// The properties on the way to a required column: a record without them was rejected.
    var required: Set<String> = []
    /// An array element is on the path: one column does not describe all of the array's elements.
    var isArray = false

    mutating func insert(_ path: ArraySlice<JSONPath.Component>, schema: JSONValue, required isRequired: Bool) {
        guard let first = path.first else {
            leaf = schema
            return
        }
        switch first {
        case .key(let key):
            var child = properties[key] ?? SchemaNode()
            child.insert(path.dropFirst(), schema: schema, required: isRequired)
            if isRequired { required.insert(key) }
            properties[key] = child
        case .index:
            isArray = true
        }
    }

    func schema(description: String? = nil) -> JSONValue {
        if isArray { return ["type": "array"] }
        if let leaf, properties.isEmpty { return leaf }
        var object: [String: JSONValue] = ["type": "object", "additionalProperties": true]
        if let description { object["description"] = .string(description) }
        if !properties.isEmpty { object["properties"] = .object(properties.mapValues { $0.schema() }) }
        if !required.isEmpty { object["required"] = .array(required.sorted().map(JSONValue.string)) }
        return .object(object)
    }
}

extension OpenAPIDocument {
    /// A reference to the schema `schema` of the document's components.
    static func ref(_ schema: String) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/\(schema)")])
    }

    /// The headers of the answers, once in `components`.
    static let sharedHeaders: [String: JSONValue] = [
        "ETag": header("A strong tag: the database's instance and the version.", pattern: nil),
        "Last-Modified": header("When the data last changed, as an HTTP date.", pattern: nil),
        "Age": header("Seconds since the last successful poll.", pattern: "^[0-9]+$"),
        "Cache-Control": header(
            "`max-age` from the last poll to the next (`max-age=0` when stale), then `stale-while-revalidate` (the "
                + "endpoint's timeout) and `stale-if-error` (its longest backoff): "
                + "`max-age=300, stale-while-revalidate=30, stale-if-error=3600`.", pattern: nil),
        "Cache-Status": header(
            "RFC 9211: `syncd; hit; ttl=42`, or a negative ttl and a detail when stale. With `[server] "
                + "allow_revalidate`, a request's `Cache-Control: max-age=N` older than the copy syncs it first: "
                + "`syncd; fwd=request; stored`, or offline `syncd; hit; fwd=request; detail=\"stale-if-error: …\"`.",
            pattern: nil),
        "Content-Range": header(
            "The rows sent, `0-9/*`, or with `Prefer: count=exact` `0-9/250` (`*/0` when none).", pattern: nil),
        "Retry-After": header("Seconds to wait before asking again.", pattern: "^[0-9]+$"),
    ]
}
