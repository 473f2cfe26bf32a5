import SyncDecoding
import SyncSupport

/// The keys of a column's table, of `pagination` and of `incremental`.
extension ConfigurationKeys {
    static let column: [ConfigurationKey] = [
        .key(
            "path", "string", default: .text("the column's name"), since: "2026-11-22", example: #""address.city""#,
            "The JSON path of the value in each record: `data.items`, `items[0].name`, `meta[\"odd-key\"]`."),
        .key(
            "type", "string", default: .value(#""text""#),
            range: ColumnType.allCases.map { "`\"\($0.rawValue)\"`" }.joined(separator: ", "), since: "2026-11-22",
            example: #""integer""#, with: [#"path = "id""#],
            "How the JSON value is stored: see [column types](../explanation/configuration.md#column-types). "
                + "Values are taken leniently (`\"12\"` is an integer) unless the endpoint sets `strict = true`."),
        .key(
            "required", "boolean", default: .value("false"), since: "2026-11-22", example: "true",
            with: [#"path = "email""#],
            "`true`: a record without this value, or with a value of another type, is rejected alone. An "
                + "optional column takes NULL instead."),
    ]

    private static let cursor = [#"type = "cursor""#, #"cursor_path = "meta.next""#, #"param = "cursor""#]

    static let pagination: [ConfigurationKey] = [
        .key(
            "type", "string", default: .text("required"),
            range: #"`"link"`, `"cursor"`, `"next_url"`, `"page"` or `"offset"`"#, since: "2026-11-22",
            example: #""link""#,
            "`\"link\"` follows the `Link` header's `rel=\"next\"` (RFC 8288). `\"cursor\"` sends a cursor from each "
                + "page, `\"next_url\"` follows a URL in the body, and `\"page\"` and `\"offset\"` count."),
        .key(
            "max_pages", "integer", default: .value("1000"),
            range: ConfigurationBounds.describe(ConfigurationBounds.maxPages), since: "2026-11-22", example: "50",
            with: [#"type = "link""#],
            "The most pages one run fetches. A walk that reaches it while the upstream announces more fails the run."),
        .key(
            "has_more_path", "string", since: "2026-11-22", example: #""has_more""#, with: [#"type = "link""#],
            "The JSON path of a boolean that is `false` on the last page. Set this or `last_page_path`, not both."),
        .key(
            "last_page_path", "string", since: "2026-12-06", example: #""isLastPage""#, with: [#"type = "link""#],
            "The JSON path of a boolean that is `true` on the last page. A walk that ends while it says `false` "
                + "fails the run."),
        .key(
            "total_path", "string", since: "2026-11-24", example: #""meta.total""#, with: [#"type = "link""#],
            "The JSON path of the collection's exact count of records. The walk ends at the page that reaches it, "
                + "and fails when the pages hold fewer."),
        .key(
            "cursor_path", "string", default: .text("required"), kinds: ["cursor"], since: "2026-11-22",
            example: #""meta.next""#, with: [#"type = "cursor""#, #"param = "cursor""#],
            "The JSON path of the next page's cursor: in the body, or inside each page's last record with "
                + "`from = \"last_record\"`."),
        .key(
            "param", "string", default: .text("required for page and offset"),
            kinds: ["cursor", "page", "offset"], since: "2026-11-22", example: #""cursor""#,
            with: [#"type = "cursor""#, #"cursor_path = "meta.next""#],
            "The query parameter that carries the cursor, page number or offset; it replaces one already in the "
                + "URL."),
        .key(
            "body_path", "string", kinds: ["cursor"], since: "2026-11-28", example: #""variables.after""#,
            with: [#"type = "cursor""#, #"cursor_path = "meta.next""#],
            around: [#"method = "POST""#, #"body = '{"query": "{ items }", "variables": {"after": null}}'"#],
            "Instead of `param`, for a POST: where each page's cursor is written into the body for the next "
                + "request."),
        .key(
            "from", "string", default: .value(#""body""#), range: #"`"body"` or `"last_record"`"#,
            kinds: ["cursor"], since: "2026-11-28", example: #""last_record""#,
            with: [#"type = "cursor""#, #"cursor_path = "id""#, #"param = "starting_after""#],
            "`\"last_record\"` reads the cursor at `cursor_path` inside each page's last record (Stripe, "
                + "`since_id` APIs)."),
        .key(
            "repeat_cursor", "boolean", default: .value("false"), kinds: ["cursor"], since: "2026-12-06",
            example: "true", with: cursor,
            "`true`: the cursor may stay the same from page to page (a scroll id); the walk ends at an empty page."),
        .key(
            "path", "string", default: .text("required"), kinds: ["next_url"], since: "2026-11-22",
            example: #""links.next""#, with: [#"type = "next_url""#],
            "The JSON path of the next page's URL in the body (HAL, JSON:API)."),
        .key(
            "start", "integer", default: .value("1"),
            range: ConfigurationBounds.describe(ConfigurationBounds.paginationStart), kinds: ["page"],
            since: "2026-11-22", example: "0", with: [#"type = "page""#, #"param = "page""#],
            "The first page's number."),
        .key(
            "size_param", "string", kinds: ["page"], since: "2026-11-22", example: #""per_page""#,
            with: [#"type = "page""#, #"param = "page""#, "size = 100"],
            "The query parameter that carries `size`."),
        .key(
            "size", "integer", range: ConfigurationBounds.describe(ConfigurationBounds.pageSize), kinds: ["page"],
            since: "2026-11-22", example: "100", with: [#"type = "page""#, #"param = "page""#],
            "Records per page. A shorter page ends the walk."),
        .key(
            "limit", "integer", default: .text("required"),
            range: ConfigurationBounds.describe(ConfigurationBounds.pageSize), kinds: ["offset"],
            since: "2026-11-22", example: "100", with: [#"type = "offset""#, #"param = "offset""#],
            "Records per page: the offset grows by it. A shorter page ends the walk."),
        .key(
            "limit_param", "string", kinds: ["offset"], since: "2026-11-22", example: #""limit""#,
            with: [#"type = "offset""#, #"param = "offset""#, "limit = 100"],
            "The query parameter that carries `limit`."),
    ]

    static let incremental: [ConfigurationKey] = [
        .key(
            "param", "string", default: .text("required"), since: "2026-11-22", example: #""updated_since""#,
            with: [#"column = "updated_at""#], around: [#"mode = "incremental""#],
            "The query parameter that carries the cursor: the highest value of `column` applied so far."),
        .key(
            "column", "string", default: .text("required"), since: "2026-11-22", example: #""updated_at""#,
            with: [#"param = "updated_since""#], around: [#"mode = "incremental""#],
            "The configured column whose highest value is the cursor. It is stored with the rows, in the same "
                + "transaction."),
        .key(
            "initial", "string", default: .text("none: no parameter"), since: "2026-11-22",
            example: #""2020-01-01T00:00:00Z""#, with: [#"param = "updated_since""#, #"column = "updated_at""#],
            around: [#"mode = "incremental""#],
            "The value sent before any row is stored."),
        .key(
            "lag", "duration", default: .text("none"),
            range: ConfigurationBounds.describe(ConfigurationBounds.incrementalLag), since: "2026-11-22",
            example: #""5m""#, with: [#"param = "updated_since""#, #"column = "updated_at""#],
            around: [#"mode = "incremental""#],
            "Timestamp columns only: subtracted from the cursor, so that a window is read again and late writes "
                + "are caught."),
        .key(
            "deleted_flag", "string", default: .text("none"), since: "2026-11-22", example: #""deleted""#,
            with: [#"param = "updated_since""#, #"column = "updated_at""#], around: [#"mode = "incremental""#],
            "The JSON path, in a record, of a boolean: `true` deletes the record's row and leaves a tombstone."),
    ]
}
