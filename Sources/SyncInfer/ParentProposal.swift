internal import FoundationEssentials
package import SyncCore
internal import SyncSQLite
import SyncSupport

/// A child endpoint's link to its parent (`syncd infer URL --parent repos`): which column of the parent's stored rows
/// the child's URL holds, so that the stanza's `url` takes it as `{parent.COLUMN}` and one URL serves every parent.
///
/// The URL is matched by whole parts only — one path segment, several consecutive segments (GitHub's `full_name`,
/// `acme/widgets`), or one query value — never inside a word, so that a short value such as `7` matches only a part
/// that is `7` and nothing else. When several columns match, the longest value wins (the one least likely to match by
/// chance), then a key column, then the column declared first.
///
/// ```swift
/// let proposal = ParentProposal.propose(
///     url: "https://api.github.com/repos/acme/widgets/issues", parent: "repos", columns: ["id", "full_name"],
///     key: ["id"], rows: [[.integer(1), .text("acme/widgets")]])
/// proposal?.template   // "https://api.github.com/repos/{parent.full_name:path}/issues"
/// ```
package struct ParentProposal: Sendable, Hashable {
    /// The parent endpoint's name.
    package var parent: String
    /// The parent's column whose value the URL holds.
    package var column: String
    /// The value of the column that the URL holds (the row of the child's own parent).
    package var value: String
    /// The URL with that value replaced by `{parent.COLUMN}`.
    package var template: String
    /// The parent's key column, when it is one column: the child rows carry it (`parent_columns`).
    package var keyColumn: String?
    /// How many of the parent's rows were looked at.
    package var rowsRead: Int

    /// The most rows of the parent looked at: a value that identifies the child's parent is in any of them, and
    /// reading them costs a few milliseconds.
    package static let rowLimit = 10_000

    /// The proposal for `url`, from the parent's `rows` (each in the order of `columns`); nil when no value of any
    /// row is a whole part of the URL.
    package static func propose(
        url: String, parent: String, columns: [String], key: [String], rows: [[SyncCache.SQLValue]]
    ) -> ParentProposal? {
        guard let parts = URLParts(url) else { return nil }
        var best: (column: Int, value: String, match: URLParts.Match)?
        for row in rows.prefix(rowLimit) {
            for (index, cell) in zip(columns.indices, row) {
                guard let value = Self.text(cell), let match = parts.match(value) else { continue }
                if let current = best,
                    !Self.isBetter(
                        (index, value), than: (current.column, current.value), key: key, columns: columns)
                {
                    continue
                }
                best = (index, value, match)
            }
        }
        guard let best else { return nil }
        let column = columns[best.column]
        return ParentProposal(
            parent: parent, column: column, value: best.value,
            template: parts.replacing(best.match, with: placeholder(column, value: best.value, match: best.match)),
            keyColumn: key.count == 1 ? key[0] : nil, rowsRead: min(rows.count, rowLimit))
    }

    /// `url` (the proposal's URL as the stanza prints it, its secrets left out) with the value replaced by
    /// `{parent.COLUMN}`; `url` itself when it no longer holds the value.
    package func template(of url: String) -> String {
        guard let parts = URLParts(url), let match = parts.match(value) else { return url }
        return parts.replacing(match, with: Self.placeholder(column, value: value, match: match))
    }

    /// `{parent.COLUMN}`, or `{parent.COLUMN:path}` for a value that spans path segments: the child's request then
    /// keeps its `/` between them (a plain path placeholder sends `/` as `%2F`, one segment).
    private static func placeholder(_ column: String, value: String, match: URLParts.Match) -> String {
        guard case .segments = match, value.contains("/") else { return "{parent.\(column)}" }
        return "{parent.\(column):path}"
    }

    /// The name the child's column of the parent's key takes: the parent's name made singular, then the key's
    /// (`repos` and `id` give `repo_id`), or `parent_` and the key's when the child has a column of that name.
    package func carriedColumn(avoiding taken: Set<String>) -> String? {
        guard let keyColumn else { return nil }
        let singular =
            parent.hasSuffix("ies")
            ? String(parent.dropLast(3)) + "y"
            : parent.hasSuffix("s") && !parent.hasSuffix("ss") ? String(parent.dropLast()) : parent
        for name in [singular + "_" + keyColumn, "parent_" + keyColumn] where !taken.contains(name) {
            guard name.utf8.count <= 63 else { continue }
            return name
        }
        return nil
    }

    /// A value as the URL would hold it; nil for NULL, a blob, and an empty or very long text.
    private static func text(_ value: SyncCache.SQLValue) -> String? {
        switch value {
        case .integer(let integer): return String(integer)
        case .text(let text) where !text.isEmpty && text.utf8.count <= 512: return text
        default: return nil
        }
    }

    private static func isBetter(
        _ candidate: (column: Int, value: String), than current: (column: Int, value: String), key: [String],
        columns: [String]
    ) -> Bool {
        if candidate.value.count != current.value.count { return candidate.value.count > current.value.count }
        let candidateIsKey = key.contains(columns[candidate.column])
        let currentIsKey = key.contains(columns[current.column])
        if candidateIsKey != currentIsKey { return candidateIsKey }
        return candidate.column < current.column
    }
}

/// A URL cut into the parts a parent's value may fill: its path segments and its query values, each as the URL spells
/// it (percent-encoded) and decoded.
struct URLParts {
    /// Where a value was found: a run of path segments, or one query value; ranges of ``url``.
    enum Match: Hashable {
        case segments(Range<String.Index>)
        case queryValue(Range<String.Index>)
    }

    let url: String
    /// Each path segment's range in `url`, in order.
    private let segments: [Range<String.Index>]
    /// Each query value's range in `url`, in order.
    private let queryValues: [Range<String.Index>]

    init?(_ url: String) {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        self.url = url
        let afterAuthority = url[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        let pathStart = afterAuthority ?? url.endIndex
        let pathEnd = url[pathStart...].firstIndex(where: { $0 == "?" || $0 == "#" }) ?? url.endIndex
        var segments: [Range<String.Index>] = []
        var start = pathStart
        while start < pathEnd {
            let from = url.index(after: start)  // past the "/"
            let end = url[from..<pathEnd].firstIndex(of: "/") ?? pathEnd
            if from < end { segments.append(from..<end) }
            start = end
        }
        var values: [Range<String.Index>] = []
        if pathEnd < url.endIndex, url[pathEnd] == "?" {
            let queryEnd = url[pathEnd...].firstIndex(of: "#") ?? url.endIndex
            var itemStart = url.index(after: pathEnd)
            while itemStart < queryEnd {
                let itemEnd = url[itemStart..<queryEnd].firstIndex(of: "&") ?? queryEnd
                if let equals = url[itemStart..<itemEnd].firstIndex(of: "=") {
                    let valueStart = url.index(after: equals)
                    if valueStart < itemEnd { values.append(valueStart..<itemEnd) }
                }
                itemStart = itemEnd < queryEnd ? url.index(after: itemEnd) : queryEnd
            }
        }
        self.segments = segments
        self.queryValues = values
    }

    /// Where `value` fills whole parts of the URL: consecutive path segments (a value with `/` spans several), else
    /// one query value; nil when it fills none.
    func match(_ value: String) -> Match? {
        let wanted = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if !wanted.contains(where: \.isEmpty), wanted.count <= segments.count {
            for first in 0...(segments.count - wanted.count) {
                let last = first + wanted.count - 1
                if zip(segments[first...last], wanted).allSatisfy({ Self.decoded(url[$0.0]) == $0.1 }) {
                    return .segments(segments[first].lowerBound..<segments[last].upperBound)
                }
            }
        }
        for range in queryValues where Self.decoded(url[range], plusIsSpace: true) == value {
            return .queryValue(range)
        }
        return nil
    }

    /// The URL with the match's text replaced.
    func replacing(_ match: Match, with text: String) -> String {
        switch match {
        case .segments(let range), .queryValue(let range):
            var url = self.url
            url.replaceSubrange(range, with: text)
            return url
        }
    }

    /// A URL part's text, percent-decoded as UTF-8; the text itself when it does not decode.
    static func decoded(_ part: Substring, plusIsSpace: Bool = false) -> String {
        let decoded = PercentDecoding.decode(part, plusIsSpace: plusIsSpace)
        // Bytes that are not UTF-8 do not decode: the part stays as it was written.
        return decoded.contains("\u{FFFD}") && !part.contains("\u{FFFD}") ? String(part) : decoded
    }
}

extension ParentProposal {
    /// The rows of a parent endpoint a proposal looks at: its key columns, then its other configured columns, at most
    /// ``rowLimit`` rows as the cache's read-only SQL returns them; nil when the endpoint has never stored rows (no
    /// successful run yet).
    package static func rows(of parent: SyncEndpoint, in cache: SyncCache) async throws(SyncError)
        -> (columns: [String], rows: [[SyncCache.SQLValue]])?
    {
        var columns = parent.primaryKey
        for column in parent.columns where !columns.contains(column.name) { columns.append(column.name) }
        let status = try await cache.statuses().first { $0.name == parent.name }
        guard status?.lastSuccessAt != nil else { return nil }
        let select = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let rows = try await cache.sql("SELECT \(select) FROM \(SQLIdentifier.quote(parent.name)) LIMIT \(rowLimit)")
        return (columns, rows.first?.rows ?? [])
    }
}
