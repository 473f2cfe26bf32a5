internal import FoundationEssentials
internal import Logging
internal import PostgresNIO
internal import SyncCore

extension PostgresReadStorage {
    /// `syncd sql`'s guard on what the server will run: before any statement runs, in the script's read-only
    /// transaction, the server plans each one with `EXPLAIN (VERBOSE, FORMAT JSON)` — which runs nothing: volatile
    /// functions, those that read files or reach outside, are not evaluated — and every function and operator of the
    /// plan's expressions, as the server resolved and deparsed them, must pass ``PostgresPlanGuard``.
    ///
    /// - Returns: the refusal of the first statement that may not run, in one sentence; nil when all may.
    static func planRefusal(_ script: PostgresScript, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> String?
    {
        for statement in script.statements {
            guard let planned = statement.planned else { continue }
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "EXPLAIN (VERBOSE, FORMAT JSON) " + planned), logger: logger)
            var plan = ""
            for try await row in rows {
                plan += try row.decode(String.self)
            }
            var expressions: [String] = []
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(plan.utf8)) else {
                return "syncd sql refuses the statement: the server's plan of it could not be read"
            }
            Self.collectExpressions(json, into: &expressions)
            let guardian = PostgresPlanGuard(expressions: expressions, spelledCalls: statement.hiddenCalls)
            if let refusal = guardian.refusal { return refusal }
            if let refusal = try await Self.foreignDefinition(guardian.namesToVerify, connection, logger) {
                return refusal
            }
        }
        return nil
    }

    /// The keys of a plan whose values are names, not expressions: a table, an alias or a node's kind may hold a `(`.
    private static let nameKeys: Set<String> = [
        "Node Type", "Relation Name", "Schema", "Alias", "CTE Name", "Index Name", "Function Name", "Subplan Name",
        "Parent Relationship", "Join Type", "Strategy", "Operation", "Scan Direction", "Partial Mode", "Command",
        "Tuplestore Name", "Trigger Name", "Constraint Name", "Sampling Method", "Conflict Resolution",
        "Conflict Arbiter Indexes", "Target Tables",
    ]

    /// Every string of the plan that may hold an expression: the values of `Output`, `Filter`, `Function Call`,
    /// `Sort Key`… and of any key not known to hold a name.
    static func collectExpressions(_ json: JSONValue, into expressions: inout [String]) {
        switch json {
        case .string(let text):
            expressions.append(text)
        case .array(let elements):
            for element in elements { collectExpressions(element, into: &expressions) }
        case .object(let members):
            for (key, value) in members where !nameKeys.contains(key) {
                collectExpressions(value, into: &expressions)
            }
        default:
            break
        }
    }

    /// The refusal of a function or operator of an allowed name that the database also defines outside `pg_catalog`
    /// (an overload of `lower` in `public` is deparsed as `lower(…)` too); nil when there is none.
    private static func foreignDefinition(
        _ names: (functions: [String], operators: [String]), _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> String? {
        guard !names.functions.isEmpty || !names.operators.isEmpty else { return nil }
        let rows = try await connection.query(
            """
            SELECT false, p.proname::text FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n
                ON n.oid = p.pronamespace WHERE n.nspname <> 'pg_catalog' AND p.proname::text = ANY(\(names.functions))
            UNION ALL
            SELECT true, o.oprname::text FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_namespace n
                ON n.oid = o.oprnamespace WHERE n.nspname <> 'pg_catalog' AND o.oprname::text = ANY(\(names.operators))
            ORDER BY 1, 2 LIMIT 1
            """, logger: logger)
        var found: [(Bool, String)] = []
        for try await row in rows.decode((Bool, String).self) { found.append(row) }
        return found.first.map { PostgresPlanGuard.refusal(definedOutside: $0.1, isOperator: $0.0) }
    }
}
