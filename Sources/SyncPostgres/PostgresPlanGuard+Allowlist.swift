/// The names ``PostgresPlanGuard`` lets a plan call: built-in functions that compute a value from their arguments
/// or read the statement's own rows, and the keywords PostgreSQL's deparser writes before `(`.
extension PostgresPlanGuard {
    /// Keywords the deparser writes before `(`, plainly: conditions (`AND (`, `WHEN (`), `ANY (`, `COALESCE(`,
    /// `EXTRACT(`, `OVER (`, `FILTER (WHERE`, `WITHIN GROUP (`, `ROWS FROM(`, the SQL/XML and SQL/JSON forms.
    /// A function of one of these names would be written quoted, and is then no keyword.
    static let keywords: Set<String> = [
        "all", "and", "any", "array", "as", "between", "both", "by", "case", "cast", "coalesce", "cube", "collation",
        "current_time",
        "current_timestamp", "default", "distinct", "else", "end", "exists", "extract", "filter", "for", "from",
        "greatest",
        "group", "grouping", "in", "is", "json", "json_array", "json_arrayagg", "json_exists", "json_object",
        "json_objectagg",
        "json_query", "json_scalar", "json_serialize", "json_table", "json_value", "leading", "least", "like", "local",
        "localtime", "localtimestamp", "normalize", "not", "nullif", "or", "over", "overlay", "passing", "path",
        "placing", "position",
        "returning", "rollup", "row", "sets", "similar", "some", "substring", "then", "trailing", "treat", "trim",
        "values", "when",
        "where", "within", "xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest", "xmlparse", "xmlpi",
        "xmlroot", "xmlserialize", "xmltable", "zone",
    ]

    /// Keywords a statement may spell before `(` in a clause the plan does not show (`VALUES (`, `IN (`,
    /// `CAST(… AS numeric(10,2))`, `ROWS FROM (`…), besides ``keywords``. The spelling loses quotes and schemas, so
    /// each name spelled there is also looked for outside `pg_catalog` (``namesToVerify``).
    static let sourceKeywords: Set<String> = [
        "bit", "char", "character", "dec", "decimal", "except", "fetch", "first", "float", "following", "groups",
        "having", "intersect", "interval", "join", "lateral", "limit", "next", "offset", "on", "only", "precision",
        "preceding", "range", "rows", "select", "ties", "union", "using", "varying", "window", "with", "without",
    ]

    /// Built-in functions that compute a value from their arguments, aggregate or rank rows, or generate them:
    /// strings, numbers, dates and times, JSON, arrays, ranges, text search, UUIDs, casts written as calls, and
    /// lookups of names in the catalog. Nothing that reads a file, runs a query given as text (`query_to_xml`,
    /// `ts_stat`), changes a setting or the session, reaches another server, or touches large objects, locks,
    /// other backends, replication or the log.
    static let allowedFunctions: Set<String> = [
        // Aggregates and window functions.
        "any_value", "array_agg", "avg", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "corr", "count",
        "covar_pop", "covar_samp", "cume_dist", "dense_rank", "every", "first_value", "json_agg", "json_agg_strict",
        "json_object_agg", "json_object_agg_strict", "json_object_agg_unique", "json_object_agg_unique_strict",
        "jsonb_agg", "jsonb_agg_strict", "jsonb_object_agg", "jsonb_object_agg_strict", "jsonb_object_agg_unique",
        "jsonb_object_agg_unique_strict", "lag", "last_value", "lead", "max", "min", "mode", "nth_value", "ntile",
        "percent_rank", "percentile_cont", "percentile_disc", "range_agg", "range_intersect_agg", "rank",
        "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy",
        "regr_syy", "row_number", "stddev", "stddev_pop", "stddev_samp", "string_agg", "sum", "var_pop", "var_samp",
        "variance", "xmlagg",
        // Numbers.
        "abs", "acos", "acosd", "acosh", "asin", "asind", "asinh", "atan", "atan2", "atan2d", "atand", "atanh",
        "cbrt", "ceil", "ceiling", "cos", "cosd", "cosh", "cot", "cotd", "degrees", "div", "erf", "erfc", "exp",
        "factorial", "floor", "gamma", "gcd", "lcm", "lgamma", "ln", "log", "log10", "min_scale", "mod", "pi",
        "pow", "power", "radians", "random", "random_normal", "round", "scale", "sign", "sin", "sind", "sinh", "sqrt",
        "tan", "tand", "tanh", "trim_scale", "trunc", "width_bucket", "numeric", "int2", "int4", "int8", "float4",
        "float8", "to_char", "to_number",
        // Strings and bytes.
        "ascii", "bit_count", "bit_length", "btrim", "casefold", "char_length", "character_length", "chr", "concat",
        "concat_ws", "convert", "convert_from", "convert_to", "crc32", "crc32c", "decode", "encode", "format",
        "get_bit", "get_byte", "initcap", "left", "length", "like_escape", "lower", "lpad", "ltrim", "md5",
        "octet_length", "parse_ident", "quote_ident", "quote_literal", "quote_nullable", "regexp_count",
        "regexp_instr", "regexp_like", "regexp_match", "regexp_matches", "regexp_replace", "regexp_split_to_array",
        "regexp_split_to_table", "regexp_substr", "repeat", "replace", "reverse", "right", "rpad", "rtrim",
        "set_bit", "set_byte", "sha224", "sha256", "sha384", "sha512", "similar_escape", "similar_to_escape",
        "split_part", "starts_with", "strpos", "substr", "text", "to_ascii", "to_hex", "to_bin", "to_oct",
        "translate", "unistr", "upper", "varchar", "bpchar", "bool", "string_to_array", "string_to_table",
        // Dates and times.
        "age", "clock_timestamp", "date", "date_add", "date_bin", "date_part", "date_subtract", "date_trunc",
        "isfinite", "justify_days", "justify_hours", "justify_interval", "make_date", "make_interval", "make_time",
        "make_timestamp", "make_timestamptz", "now", "statement_timestamp", "timeofday", "timezone", "to_date",
        "to_timestamp", "transaction_timestamp", "timestamp", "timestamptz", "interval", "time", "timetz",
        // JSON.
        "array_to_json", "json_array_elements", "json_array_elements_text", "json_array_length", "json_build_array",
        "json_build_object", "json_each", "json_each_text", "json_extract_path", "json_extract_path_text",
        "json_object_keys", "json_populate_record", "json_populate_recordset", "json_strip_nulls",
        "json_to_record", "json_to_recordset", "json_typeof", "jsonb_array_elements", "jsonb_array_elements_text",
        "jsonb_array_length", "jsonb_build_array", "jsonb_build_object", "jsonb_each", "jsonb_each_text",
        "jsonb_extract_path", "jsonb_extract_path_text", "jsonb_insert", "jsonb_object", "jsonb_object_keys",
        "jsonb_path_exists", "jsonb_path_exists_tz", "jsonb_path_match", "jsonb_path_match_tz", "jsonb_path_query",
        "jsonb_path_query_array", "jsonb_path_query_array_tz", "jsonb_path_query_first", "jsonb_path_query_first_tz",
        "jsonb_path_query_tz", "jsonb_populate_record", "jsonb_populate_record_valid", "jsonb_populate_recordset",
        "jsonb_pretty", "jsonb_set", "jsonb_set_lax", "jsonb_strip_nulls", "jsonb_to_record", "jsonb_to_recordset",
        "jsonb_typeof", "row_to_json", "to_json", "to_jsonb", "jsonb_exists", "jsonb_exists_any", "jsonb_exists_all",
        "jsonb_contains", "jsonb_contained",
        // Arrays, ranges and sets of rows.
        "array_append", "array_cat", "array_dims", "array_fill", "array_length", "array_lower", "array_ndims",
        "array_position", "array_positions", "array_prepend", "array_remove", "array_replace", "array_reverse",
        "array_sample", "array_shuffle", "array_sort", "array_to_string", "array_upper", "cardinality",
        "generate_series", "generate_subscripts", "isempty", "lower_inc", "lower_inf", "range_merge", "trim_array",
        "unnest", "upper_inc", "upper_inf", "int4range", "int8range", "numrange", "tsrange", "tstzrange",
        "daterange", "multirange",
        // Text search.
        "plainto_tsquery", "phraseto_tsquery", "setweight", "strip", "to_tsquery", "to_tsvector", "ts_headline",
        "ts_rank", "ts_rank_cd", "websearch_to_tsquery", "numnode", "querytree", "tsvector_to_array",
        "array_to_tsvector",
        // UUIDs, and values about values.
        "gen_random_uuid", "uuidv4", "uuidv7", "uuid_extract_timestamp", "uuid_extract_version", "num_nonnulls",
        "num_nulls", "overlaps", "pg_typeof", "pg_column_size", "format_type", "pg_collation_for",
        // Names looked up in the catalog, and where the statement runs.
        "to_regclass", "to_regcollation", "to_regnamespace", "to_regoper", "to_regoperator", "to_regproc",
        "to_regprocedure", "to_regrole", "to_regtype", "to_regtypemod", "current_database", "current_schema",
        "current_schemas", "current_setting", "version",
    ]
}
