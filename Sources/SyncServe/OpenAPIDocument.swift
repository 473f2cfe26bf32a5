package import SyncCore
import SyncSupport

/// `GET /openapi.json`: an OpenAPI 3.1 description of the read API as it is configured.
///
/// Each configured endpoint gets its own paths (`/v1/endpoints/users/records`, `/rest/users`, …), so that a client
/// generated from the document has one typed operation per endpoint, and each collection one record schema built
/// from its columns. A record is served as the upstream sent it, so its schema allows any other property; a column's
/// property is typed by what the decoder accepts for a required column, and left open for an optional one (a
/// mistyped optional value is kept in the record as received, and is NULL only in its column).
///
/// The filters of the records routes are described per column as PostgREST's dialect spells them, with patterns a
/// generator can follow; everything the document allows, the server answers without a 5xx (schemathesis checks that
/// in the tests, against a live `syncd run`).
package enum OpenAPIDocument {
    /// The document for `endpoints`; with `bearer`, every operation needs the token and may answer 401; without it,
    /// a TCP listen may answer 421 to a request whose `Host` does not name it.
    package static func make(endpoints: [SyncCache.Endpoint], bearer: Bool) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        var schemas = Self.sharedSchemas
        var parameters = Self.sharedParameters.merging(Self.liveParameters) { shared, _ in shared }
        paths["/healthz"] = get(
            "health", summary: "Whether the database answers, and how many endpoints are stale.", tag: "service",
            responses: ["200": json("Health"), "503": response("Unavailable")])
        paths["/metrics"] = get(
            "metrics", summary: "Prometheus text: syncs, records, durations and requests.", tag: "service",
            responses: [
                "200": .object([
                    "description": "Prometheus text exposition format 0.0.4.",
                    "content": .object(["text/plain": .object(["schema": .object(["type": "string"])])]),
                ])
            ])
        paths["/openapi.json"] = get(
            "openapi", summary: "This document.", tag: "service",
            responses: [
                "200": .object([
                    "description": "An OpenAPI 3.1 document.",
                    "content": .object(["application/json": .object(["schema": .object(["type": "object"])])]),
                ])
            ])
        paths["/"] = get(
            "statusPage",
            summary: "The status page for people; a client whose Accept asks for JSON gets /v1/endpoints.",
            tag: "service",
            responses: [
                "200": .object([
                    "description": "An HTML page that reloads itself, or the endpoints' states as JSON.",
                    "content": .object([
                        "text/html": .object(["schema": .object(["type": "string"])]),
                        "application/json": .object([
                            "schema": .object(["type": "array", "items": ref("EndpointState")])
                        ]),
                    ]),
                ]),
                "503": response("Unavailable"),
            ])
        paths["/v1/endpoints"] = get(
            "listEndpoints", summary: "Every endpoint's state and freshness, in the configuration's order.",
            tag: "service",
            responses: [
                "200": json(.object(["type": "array", "items": ref("EndpointState")]), "The endpoints' states."),
                "503": response("Unavailable"),
            ])
        for endpoint in endpoints {
            let name = endpoint.name
            let base = "/v1/endpoints/\(name)"
            if endpoint.isDocument {
                paths[base + "/document"] = get(
                    "\(name)_document", summary: "The document endpoint \(name)'s body, as the upstream typed it.",
                    tag: name, parameters: conditional,
                    responses: cached(
                        .object([
                            "description": "The body as received, with its content type.",
                            "headers": .object(cacheHeaders),
                            "content": .object(["*/*": .object(["schema": .object([:])])]),
                        ])))
                continue
            }
            let listParameters = listParameterComponents(endpoint)
            for (key, parameter) in listParameters { parameters[key] = parameter }
            schemas["\(name)_record"] = recordSchema(endpoint)
            schemas["\(name)_row"] = rowSchema(endpoint)
            schemas["\(name)_changes"] = changesSchema(endpoint)
            let list = listOperation(endpoint, parameters: listParameters.map(\.0))
            paths[base + "/records"] = get("\(name)_records", list)
            paths["/rest/\(name)"] = get("\(name)_rest", list)
            paths[base + "/records/{id}"] = get(
                "\(name)_record", summary: "One record of \(name) by its key.", tag: name,
                parameters: [idParameter(endpoint)] + conditional,
                responses: cached(json(ref("\(name)_record"), "The record as received.", headers: cacheHeaders)))
            paths[base + "/changes"] = get(
                "\(name)_changes", summary: "What changed in \(name) after a version; live as an event stream.",
                tag: name, parameters: changesParameters + conditional, responses: changesResponses(name))
            paths[base + "/drift"] = get(
                "\(name)_drift", summary: "The schema-drift journal of \(name).", tag: name,
                responses: [
                    "200": json("Drift"),
                    "503": response("Unavailable"),
                ])
        }
        paths.merge(hookPaths(endpoints)) { read, _ in read }
        var document: [String: JSONValue] = [
            "openapi": "3.1.0",
            "info": .object([
                "title": "syncd read API",
                "version": .string(SyncdVersion.current),
                "description": .string(
                    """
                    The local, read-only HTTP API of syncd: the cached records of each configured endpoint, with \
                    ETags, filters in PostgREST's dialect and a change feed. Errors are application/problem+json \
                    with one sentence. Only GET and HEAD are answered, and POST of a webhook; others are 405.

                    A filter on a configured column is `column=op.value`. The operators are eq, neq, gt, gte, lt, \
                    lte, like, ilike (`%` or `*` for any run of characters, `_` for one), `in.(a,b)` (values may be \
                    double-quoted) and `is.null|true|false`. Each is negated with `not.`, and filters are joined by \
                    AND. `order` sorts NULLs last ascending and first descending unless `.nullsfirst`/`.nullslast` \
                    say otherwise.

                    A request past a bound is a 400 naming the parameter. A query string holds at most \
                    \(QueryLimits.queryBytes) bytes, and a name or value at most \(QueryLimits.valueScalars) characters. \
                    A request has at most \(QueryLimits.filters) filters, \(QueryLimits.orderItems) `order` items and \
                    \(QueryLimits.inValues) values in `in.(…)`, and names each column once in `select`. `limit` and \
                    `offset` are at most \(QueryLimits.count).
                    """),
            ]),
            "paths": .object(paths.mapValues { operation in withCommonResponses(operation, bearer: bearer) }),
        ]
        var components: [String: JSONValue] = [
            "schemas": .object(schemas), "parameters": .object(parameters),
            "responses": .object(sharedResponses), "headers": .object(sharedHeaders),
        ]
        if bearer {
            document["security"] = .array([.object(["bearer": .array([])])])
            components["securitySchemes"] = .object(["bearer": .object(["type": "http", "scheme": "bearer"])])
        }
        document["components"] = .object(components)
        return .object(document)
    }

    // MARK: - Operations

    /// A GET operation (HEAD is answered as GET without a body, and not listed).
    static func get(
        _ id: String, summary: String, tag: String, parameters: [JSONValue] = [], responses: [String: JSONValue]
    ) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(id), "summary": .string(summary), "tags": .array([.string(tag)]),
            "responses": .object(responses),
        ]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        return .object(["get": .object(operation)])
    }

    static func get(_ id: String, _ operation: [String: JSONValue]) -> JSONValue {
        var operation = operation
        operation["operationId"] = .string(id)
        return .object(["get": .object(operation)])
    }

    /// The records list of a collection, as `/v1/endpoints/{name}/records` and `/rest/{name}` both answer it, with the
    /// keys of its own parameters in `components` (``listParameterComponents(_:)``).
    static func listOperation(_ endpoint: SyncCache.Endpoint, parameters own: [String]) -> [String: JSONValue] {
        let name = endpoint.name
        let item: JSONValue = .object(["anyOf": .array([ref("\(name)_record"), ref("\(name)_row")])])
        var headers = cacheHeaders
        headers["Content-Range"] = .object(["$ref": "#/components/headers/Content-Range"])
        return [
            "summary": .string("The records of \(name), filtered, ordered and paged in PostgREST's dialect."),
            "tags": .array([.string(name)]),
            "parameters": .array(
                own.map(parameter)
                    + [parameter("limit"), parameter("offset"), parameter("Prefer")] + conditional),
            "responses": .object(
                cached(
                    json(
                        .object(["type": "array", "items": item]),
                        "The records as received (`select=*`), or objects of the selected columns, typed.",
                        headers: headers))),
        ]
    }

    /// 200 with `ok`, 304, and the problems of a cached route: 400 for a bad parameter, 404 for an unknown or
    /// never-synced endpoint or record, 503 when the database cannot be read.
    static func cached(_ ok: JSONValue) -> [String: JSONValue] {
        [
            "200": ok, "304": response("NotModified"), "400": response("BadParameter"), "404": response("NotFound"),
            "503": response("Unavailable"),
        ]
    }

    /// Adds what any route may answer: 405 is not listed (it answers methods the document does not declare), 401
    /// with a token, 421 without one.
    static func withCommonResponses(_ path: JSONValue, bearer: Bool) -> JSONValue {
        guard case .object(var item) = path, case .object(var operation)? = item["get"],
            case .object(var responses)? = operation["responses"]
        else { return path }
        if bearer {
            responses["401"] = response("Unauthorized")
        } else {
            responses["421"] = response("MisdirectedRequest")
        }
        responses["503"] = responses["503"] ?? response("Unavailable")
        operation["responses"] = .object(responses)
        item["get"] = .object(operation)
        return .object(item)
    }

    // MARK: - Parameters

    /// `If-None-Match` and `If-Modified-Since`, for a 304.
    static let conditional: [JSONValue] = [parameter("IfNoneMatch"), parameter("IfModifiedSince")]

    /// The parameters every endpoint's operations share, once in `components`: each path refers to them.
    static let sharedParameters: [String: JSONValue] = [
        "IfNoneMatch": .object([
            "name": "If-None-Match", "in": "header", "required": false,
            "description": "Tags from earlier answers (a list, `W/` tags, or `*`): 304 when one is current.",
            "schema": .object(["type": "string"]),
        ]),
        "IfModifiedSince": .object([
            "name": "If-Modified-Since", "in": "header", "required": false,
            "description": "An HTTP date: 304 when nothing changed since. Ignored with If-None-Match.",
            "schema": .object(["type": "string"]),
        ]),
        "Prefer": .object([
            "name": "Prefer", "in": "header", "required": false,
            "description": "`count=exact` puts the total in Content-Range.",
            "schema": .object(["type": "string"]),
        ]),
        "limit": query(
            "limit", "The most records to send; never more than `[server] max_rows`, nor past 8 MiB of JSON.",
            .object(["type": "integer", "minimum": 0, "maximum": .integer(Int64(QueryLimits.count))])),
        "offset": query(
            "offset", "How many records to skip.",
            .object(["type": "integer", "minimum": 0, "maximum": .integer(Int64(QueryLimits.count))])),
        "since": query(
            "since", "The version the client has; 0 (the default) for everything.",
            .object(["type": "integer", "minimum": 0, "maximum": .integer(Int64.max)])),
        "after": query(
            "after",
            "A position from the `next` link of a capped answer with the same `since`; follow `next` rather than "
                + "building one. A position at or before `since` is the walk's start.",
            string(pattern: "^\(QueryGrammar.position)$")),
        "changesLimit": query(
            "limit", "The most changes in one answer; never more than `[server] max_rows`.",
            .object(["type": "integer", "minimum": 1, "maximum": .integer(Int64(QueryLimits.count))])),
    ]

    static func parameter(_ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/parameters/\(name)")])
    }

    /// A collection's list parameters, written once in `components.parameters` under `NAME.PARAMETER` (names are
    /// SQL identifiers, so the key is one OpenAPI allows) for its two list routes to refer to: `select`, `order`,
    /// and a filter per configured column. The filter dialect is described once, in `info`.
    static func listParameterComponents(_ endpoint: SyncCache.Endpoint) -> [(String, JSONValue)] {
        let name = endpoint.name
        let names = endpoint.columns.map(\.name)
        var parameters: [(String, JSONValue)] = [
            (
                "\(name).select",
                query(
                    "select",
                    "`*` (the default) for the records as received, or columns for objects of them, typed; each "
                        + "column at most once.",
                    string(pattern: QueryGrammar.select(names)))
            ),
            (
                "\(name).order",
                query(
                    "order",
                    "Columns, each `.asc`/`.desc` and `.nullsfirst`/`.nullslast`; at most \(QueryLimits.orderItems).",
                    string(pattern: QueryGrammar.order(names)))
            ),
        ]
        for spec in endpoint.columns {
            parameters.append(
                (
                    "\(name).\(spec.name)",
                    query(
                        spec.name, "A filter on the \(spec.type.rawValue) column \(spec.name).",
                        string(pattern: QueryGrammar.filter(spec.type)))
                ))
        }
        return parameters
    }

    /// A string parameter's schema: a pattern, and at most ``QueryLimits/valueScalars`` characters.
    static func string(pattern: String) -> JSONValue {
        .object([
            "type": "string", "pattern": .string(pattern), "maxLength": .integer(Int64(QueryLimits.valueScalars)),
        ])
    }

    /// A part of a record's key in the path, as the store reads it against the key column's type.
    static func keyPattern(_ type: ColumnType) -> String {
        switch type {
        case .text, .json: "[^,]*"
        default: QueryGrammar.value(type)
        }
    }

    static func idParameter(_ endpoint: SyncCache.Endpoint) -> JSONValue {
        let keys = endpoint.primaryKey.compactMap { name in endpoint.columns.first { $0.name == name } }
        let description =
            keys.count == 1
            ? "The record's \(keys[0].name)."
            : "The record's key, its parts (\(keys.map(\.name).joined(separator: ", "))) separated by commas."
        // A single text key may hold commas; a part of a composite one may not.
        let pattern =
            keys.count == 1 && (keys[0].type == .text || keys[0].type == .json)
            ? ".+" : keys.map { keyPattern($0.type) }.joined(separator: ",")
        return .object([
            "name": "id", "in": "path", "required": true, "description": .string(description),
            "schema": .object(["type": "string", "pattern": .string("^\(pattern)$")]),
        ])
    }

    static let changesParameters: [JSONValue] = [
        parameter("since"), parameter("after"), parameter("changesLimit"), parameter("wait"),
    ]

    static func query(_ name: String, _ description: String, _ schema: JSONValue) -> JSONValue {
        .object([
            "name": .string(name), "in": "query", "required": false, "description": .string(description),
            "schema": schema,
        ])
    }

    // MARK: - Responses

    /// The freshness headers of a cached answer, each a reference to `components`.
    static let cacheHeaders: [String: JSONValue] = Dictionary(
        uniqueKeysWithValues: sharedHeaders.keys.filter { !["Content-Range", "Retry-After"].contains($0) }.map {
            ($0, JSONValue.object(["$ref": .string("#/components/headers/\($0)")]))
        })

    /// The answers every endpoint's operations share, once in `components`.
    static let sharedResponses: [String: JSONValue] = [
        "NotModified": .object([
            "description": "Not modified: the tag or date given is current. No body.",
            "headers": .object(cacheHeaders),
        ]),
        "BadParameter": problem("A query parameter is malformed or names no configured column; `parameter` names it."),
        "NotFound": problem("The endpoint has not been synced yet, or has no such record."),
        "Unavailable": problem("The database cannot be read, or too many reads wait.", retry: true),
        "Unauthorized": problem("No bearer token, or the wrong one."),
        "MisdirectedRequest": problem("The request's Host does not name the address the API listens on."),
    ]

    static func response(_ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/responses/\(name)")])
    }

    static func header(_ description: String, pattern: String?) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "string"]
        if let pattern { schema["pattern"] = .string(pattern) }
        return .object(["description": .string(description), "schema": .object(schema)])
    }

    static func json(_ schema: String) -> JSONValue {
        json(ref(schema), schema)
    }

    static func json(_ schema: JSONValue, _ description: String, headers: [String: JSONValue] = [:])
        -> JSONValue
    {
        var response: [String: JSONValue] = [
            "description": .string(description),
            "content": .object(["application/json": .object(["schema": schema])]),
        ]
        if !headers.isEmpty { response["headers"] = .object(headers) }
        return .object(response)
    }

    static func problem(_ description: String, retry: Bool = false) -> JSONValue {
        var response: [String: JSONValue] = [
            "description": .string(description),
            "content": .object(["application/problem+json": .object(["schema": ref("Problem")])]),
        ]
        if retry {
            response["headers"] = .object(["Retry-After": .object(["$ref": "#/components/headers/Retry-After"])])
        }
        return .object(response)
    }
}
