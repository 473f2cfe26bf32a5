/// What `syncd sql` on PostgreSQL lets run, judged on the server's plan of a statement rather than on its spelling:
/// the expressions of `EXPLAIN (VERBOSE, FORMAT JSON)`, in which the server has resolved every name, may call only
/// the built-in functions of ``allowedFunctions`` — reading, computing and formatting values — and the keywords
/// the deparser writes before `(`. Anything else is refused: `query_to_xml`, `dblink`, `lo_*`, `pg_read_*`,
/// `set_config`, any function of the database's own, any name the list does not know.
///
/// The names are checked against the list here; that no function or operator of the same name is defined outside
/// `pg_catalog` (an overload of `lower`, an operator of an extension) is asked of the server, with ``namesToVerify``.
package struct PostgresPlanGuard: Sendable, Equatable {
    /// The functions called and the operators used in the plan's expressions.
    package var calls: Set<PostgresPlanExpression.Call> = []
    package var operators: Set<PostgresPlanExpression.Operator> = []
    /// Whether an expression could not be read to its end.
    package var unreadable = false
    /// The calls the statement spells in the clauses whose expressions the plan does not show
    /// (``PostgresScript/Command/hiddenCalls``): there, the spelling is judged, lower-cased unless quoted.
    package var spelledCalls: Set<String> = []

    /// The names of functions and the symbols of operators `expressions` use: each expression of a plan; and the calls
    /// `spelledCalls` of the clauses the plan does not show.
    package init(expressions: some Sequence<String>, spelledCalls: [String] = []) {
        self.spelledCalls = Set(spelledCalls)
        for text in expressions {
            let expression = PostgresPlanExpression(text)
            calls.formUnion(expression.calls)
            operators.formUnion(expression.operators)
            unreadable = unreadable || expression.unreadable
        }
    }

    /// Why the plan may not run, in one sentence; nil when every call is allowed by name.
    package var refusal: String? {
        if unreadable {
            return "syncd sql refuses the statement: the server's plan of it could not be read"
        }
        let refused =
            calls.filter { !Self.isAllowed($0) }.map(\.description)
            + spelledCalls.filter {
                !Self.keywords.contains($0) && !Self.sourceKeywords.contains($0) && !Self.allowedFunctions.contains($0)
            }
        if let call = refused.sorted().first {
            return "syncd sql refuses \(call)(): it is not among the built-in functions it allows"
        }
        let foreign = operators.filter { $0.schema != nil && $0.schema != "pg_catalog" }.sorted {
            $0.symbol < $1.symbol
        }
        if let symbol = foreign.first?.symbol {
            return "syncd sql refuses the operator \(symbol): it is defined outside pg_catalog"
        }
        return nil
    }

    /// The function names and operator symbols whose definitions outside `pg_catalog` the server is asked for: an
    /// allowed name is allowed only as the built-in.
    package var namesToVerify: (functions: [String], operators: [String]) {
        (
            Set(calls.filter { $0.quoted || !Self.keywords.contains($0.name) }.map(\.name)).union(spelledCalls)
                .sorted(),
            Set(operators.map(\.symbol)).sorted()
        )
    }

    /// The sentence refusing a function `name` (or an operator) that the database defines outside `pg_catalog`.
    package static func refusal(definedOutside name: String, isOperator: Bool) -> String {
        isOperator
            ? "syncd sql refuses the operator \(name): the database defines one of that name outside pg_catalog"
            : "syncd sql refuses \(name)(): the database defines a function of that name outside pg_catalog"
    }

    /// Whether `call` is allowed by name: a keyword written plainly, or an allowed function, unqualified or in
    /// `pg_catalog`.
    static func isAllowed(_ call: PostgresPlanExpression.Call) -> Bool {
        guard call.schema == nil || call.schema == "pg_catalog" else { return false }
        if !call.quoted, call.schema == nil, keywords.contains(call.name) { return true }
        return allowedFunctions.contains(call.name)
    }
}
