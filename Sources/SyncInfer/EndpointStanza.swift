import SyncCore
import SyncSupport

/// Prints an ``InferredEndpoint`` as the TOML of an `[[endpoint]]`, to paste into syncd.toml.
///
/// ```toml
/// # 10 records at "$": every one was read to infer these columns.
/// [[endpoint]]
/// name = "users"
/// url = "https://example.com/users"
/// records = "$"
/// primary_key = ["id"]
///
/// [endpoint.columns]
/// id = { path = "id", type = "integer", required = true }
/// address_geo_lat = { path = "address.geo.lat", type = "real", required = true }
/// ```
package enum EndpointStanza {
    /// The stanza's text, ending with a newline.
    package static func render(_ endpoint: InferredEndpoint) -> String {
        var lines: [String] = []
        if endpoint.recordsPath != nil {
            lines.append("# \(recordsRead(endpoint, quote: quoted)): every one was read to infer these columns.")
        } else {
            lines.append("# No array of objects in the response: a document endpoint caches the whole body.")
        }
        lines.append("[[endpoint]]")
        lines.append("name = \(quoted(endpoint.name))")
        lines += parentLines(endpoint)
        lines += urlLines(URLSecrets(url: endpoint.url, endpoint: endpoint.name), parent: endpoint.parent)
        guard let recordsPath = endpoint.recordsPath else { return text(lines) }
        lines.append("records = \(quoted(recordsPath.description))")
        if let key = endpoint.primaryKey {
            if let nested = endpoint.nestedKeyColumn {
                lines.append(
                    "# The key is nested: \(quoted(nested.path.description)) is unique in every record here; check that "
                        + "no two records can share it.")
            }
            lines.append("primary_key = [\(quoted(key))]")
            if let carried = carriedColumn(endpoint) {
                lines += comment(
                    "The key must be unique across every parent's records: when it is unique only within one parent's "
                        + "(a number per repository), add the parent's, e.g. primary_key = [\(quoted(carried)), "
                        + "\(quoted(key))].")
            }
        } else {
            lines.append(
                "# TODO: no key was found (an id-like column, unique and non-null in every record), and syncd needs "
                    + "a primary key:")
            lines.append("# name the column(s) that identify a record, e.g. primary_key = [\"a\", \"b\"]")
        }
        if let pagination = endpoint.pagination {
            lines += pagination.notes.flatMap(comment)
            lines += pagination.otherKeys.map { "# " + $0 }
            lines.append((pagination.isConfident ? "" : "# ") + "pagination = " + pagination.value)
        }
        lines.append("")
        lines.append("[endpoint.columns]")
        let withheld =
            endpoint.withholdsRequired && endpoint.columns.contains { $0.required && $0.name != endpoint.primaryKey }
        if withheld {
            lines += comment(
                "Only the first page was read, and more follow: a column every record of it has keeps required = true "
                    + "in a comment, since a record of a later page without the value would be rejected.")
        }
        for column in endpoint.columns {
            var entry = "path = \(quoted(column.path.description)), type = \(quoted(column.type.rawValue))"
            let isKey = column.name == endpoint.primaryKey
            if column.required, isKey || !withheld { entry += ", required = true" }
            let note = column.required && !isKey && withheld ? "  # required = true" : ""
            lines.append("\(column.name) = { \(entry) }\(note)")
        }
        if !endpoint.leftOut.isEmpty {
            let paths = endpoint.leftOut.prefix(10).map(\.description).joined(separator: ", ")
            let more = endpoint.leftOut.count > 10 ? ", and \(endpoint.leftOut.count - 10) more" : ""
            lines.append(
                "# Left out past \(ColumnInference.maximumColumns) columns: \(paths)\(more). "
                    + "The whole record stays in _raw.")
        }
        return text(lines)
    }

    /// The records read and where, for the stanza's first line and stderr: `25 records at "data"`, `57 records on all
    /// 3 pages at "releases"`, `75 records on the first 3 pages at "releases" (more follow)`.
    ///
    /// - Parameter quote: how the records path is quoted (TOML's escapes in the stanza, the terminal's on stderr).
    package static func recordsRead(_ endpoint: InferredEndpoint, quote: (String) -> String) -> String {
        let records = Counting.counted(endpoint.recordCount, "record")
        let path = quote(endpoint.recordsPath?.description ?? "$")
        switch (endpoint.pagesRead, endpoint.morePages) {
        case (1, false): return "\(records) at \(path)"
        case (1, true): return "\(records) at \(path), on the first page (more follow)"
        case (let pages, false): return "\(records) on all \(pages) pages at \(path)"
        case (let pages, true): return "\(records) on the first \(pages) pages at \(path) (more follow)"
        }
    }

    /// The lines as the stanza's text. Strings were quoted with their controls escaped; this escapes any left in a
    /// comment (a key in a note), where TOML forbids them and where they would reach the terminal.
    private static func text(_ lines: [String]) -> String {
        lines.map { ControlCharacters.escaped($0, .code) }.joined(separator: "\n") + "\n"
    }

    /// The `url` line without the URL's secrets, and the `auth` line that sends its secret query parameter instead,
    /// with comments saying what to set and what was left out.
    private static func urlLines(_ secrets: URLSecrets, parent: ParentProposal?) -> [String] {
        var lines = ["url = \(quoted(parent?.template(of: secrets.url) ?? secrets.url))"]
        if secrets.isRedacted {
            lines += comment(
                "TODO: url holds a secret shown as \(URLRedaction.marker) (user information, or a parameter after \";\" "
                    + "or \"#\"): send it with auth instead, and remove it.")
        }
        for name in secrets.dropped {
            lines += comment(
                "TODO: the URL's \(quoted(name)) is a secret too, left out of url (auth sends one parameter): check "
                    + "whether the API needs it.")
        }
        if let auth = secrets.auth {
            lines += comment(
                "The URL's \(quoted(auth.name)) is a secret, left out of url: auth sends it from the environment "
                    + "variable \(auth.environment), which must be set where syncd runs.")
            lines.append(
                "auth = { type = \"query\", name = \(quoted(auth.name)), value_env = \(quoted(auth.environment)) }")
        }
        return lines
    }

    /// The `parent` and `parent_columns` lines of a child endpoint (`--parent`), or the TODO saying that the URL holds
    /// no value of the parent's rows.
    private static func parentLines(_ endpoint: InferredEndpoint) -> [String] {
        if let (name, rows) = endpoint.unmatchedParent {
            return comment(
                "TODO: none of the \(Counting.counted(rows, "row")) of \(quoted(name)) read has a value that is a whole "
                    + "part of the URL (a path segment, segments, or a query value): write the URL with "
                    + "{parent.COLUMN} where the parent's value goes.") + ["parent = \(quoted(name))"]
        }
        guard let parent = endpoint.parent else { return [] }
        var lines = comment(
            "One walk per row of \(quoted(parent.parent)): the URL held \(quoted(parent.value)), the value of its "
                + "column \(quoted(parent.column)) in one of the \(Counting.counted(parent.rowsRead, "row")) read.")
        lines.append("parent = \(quoted(parent.parent))")
        if let key = parent.keyColumn, let carried = carriedColumn(endpoint) {
            lines.append("parent_columns = { \(carried) = \(quoted(key)) }")
        }
        return lines
    }

    /// The child's column that carries its parent's key (`parent_columns`), when the parent has a one-column key.
    private static func carriedColumn(_ endpoint: InferredEndpoint) -> String? {
        endpoint.parent?.carriedColumn(avoiding: Set(endpoint.columns.map(\.name)))
    }

    /// A note as comment lines of at most ``commentWidth`` characters, broken between words.
    static func comment(_ text: String) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count > 1, line.count + 1 + word.count > commentWidth {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }

    /// The width comments are broken at, as the code around them is.
    static let commentWidth = 116

    /// A TOML basic string: quotation marks, backslashes and what ``ControlCharacters`` escapes in code (every
    /// control character TOML forbids raw, and C1 and bidirectional controls besides) written as escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if ControlCharacters.needsEscape(scalar, .code) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
