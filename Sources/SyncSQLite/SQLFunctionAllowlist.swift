/// The SQL functions `syncd sql` may call: SQLite's core scalar, aggregate, window, date, math and JSON functions.
/// Everything else is refused by the authorizer (`SQLITE_FUNCTION`), among them `load_extension`, `fts3_tokenizer`
/// (which leaks a pointer and registers a tokenizer at any address), `fts5` (a pointer too), `sqlite_log`, the FTS
/// and R*Tree helpers, and the sqlite3 shell's `readfile`, `writefile` and `edit` should a build ever register them.
///
/// Names are lowercase; SQLite passes them as written, so the check lowercases first.
/// Related SQLite documentation: https://sqlite.org/lang_corefunc.html, https://sqlite.org/lang_aggfunc.html,
/// https://sqlite.org/windowfunctions.html, https://sqlite.org/lang_datefunc.html,
/// https://sqlite.org/lang_mathfunc.html, https://sqlite.org/json1.html
package enum SQLFunctionAllowlist {
    package static let names: Set<String> = scalar.union(aggregate).union(window).union(date).union(math).union(json)

    private static let scalar: Set<String> = [
        "abs", "changes", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull", "iif",
        "instr", "last_insert_rowid", "length", "like", "likelihood", "likely", "lower", "ltrim", "max", "min",
        "nullif", "octet_length", "printf", "quote", "random", "randomblob", "replace", "round", "rtrim", "sign",
        "soundex", "sqlite_compileoption_get", "sqlite_compileoption_used", "sqlite_source_id", "sqlite_version",
        "substr", "substring", "total_changes", "trim", "typeof", "unhex", "unicode", "unlikely", "upper",
        "zeroblob",
    ]
    private static let aggregate: Set<String> = [
        "avg", "count", "group_concat", "string_agg", "sum", "total",
    ]
    private static let window: Set<String> = [
        "cume_dist", "dense_rank", "first_value", "lag", "last_value", "lead", "nth_value", "ntile", "percent_rank",
        "rank", "row_number",
    ]
    private static let date: Set<String> = [
        "current_date", "current_time", "current_timestamp", "date", "datetime", "julianday", "strftime", "time",
        "timediff", "unixepoch",
    ]
    private static let math: Set<String> = [
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees",
        "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt",
        "tan", "tanh", "trunc",
    ]
    private static let json: Set<String> = [
        "->", "->>", "json", "json_array", "json_array_length", "json_error_position", "json_extract",
        "json_group_array", "json_group_object", "json_insert", "json_object", "json_patch", "json_pretty",
        "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid",
    ]
}
