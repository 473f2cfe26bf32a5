package import SyncCore

/// A column inferred from the records: a name the configuration accepts, the path of its value and its type.
package struct InferredColumn: Sendable, Hashable {
    package var name: String
    package var path: JSONPath
    package var type: ColumnType
    /// Whether every record read has a non-null value there.
    package var required: Bool
}

/// An `[[endpoint]]` stanza inferred from the pages of a response, ready to print with ``EndpointStanza``.
package struct InferredEndpoint: Sendable {
    package var name: String
    package var url: String
    /// The path of the records; nil for a document endpoint.
    package var recordsPath: JSONPath?
    /// The number of records looked at.
    package var recordCount: Int
    package var columns: [InferredColumn]
    /// The guessed primary key column; nil when no key-like column is unique and non-null in every record.
    package var primaryKey: String?
    /// Paths found in the records but given no column (too deep, or past the column limit).
    package var leftOut: [JSONPath]
    /// Other arrays of objects that could have been the records, with their sizes.
    package var otherCandidates: [(path: JSONPath, count: Int)]
    /// Why these records were chosen over arrays of the same size; nil when no other array was as large.
    package var choice: String? = nil
    /// The `pagination` line proposed from the envelope or the `Link` header; nil when nothing suggested one.
    package var pagination: PaginationProposal? = nil

    /// The parent whose rows the URL's value comes from (`--parent`), when one of them matched.
    package var parent: ParentProposal? = nil
    /// The parent endpoint named by `--parent` when none of its rows' values is a whole part of the URL: the stanza
    /// says so in a TODO.
    package var unmatchedParent: (name: String, rows: Int)? = nil

    /// The pages whose records were read.
    package var pagesRead = 1
    /// Whether pages may follow the last one read: the walk stopped at `--pages` or at a page it could not read, or
    /// its pagination could not be followed (a file, standard input, a proposal that is not sure).
    package var morePages = false
    /// Why the walk stopped before the pages ended, when a page could not be read: one sentence for stderr.
    package var stopReason: String? = nil

    /// Whether `required` is left in comments: a single page was read and more may follow, so that a value every
    /// record of it has may yet be missing from a later one.
    package var withholdsRequired: Bool { morePages && pagesRead < 2 }

    /// Whether the response is one document rather than records.
    package var isDocument: Bool { recordsPath == nil }

    /// The primary key's column, when the key lies in a nested object (`repo.id`) rather than in the record.
    package var nestedKeyColumn: InferredColumn? {
        guard let primaryKey, let column = columns.first(where: { $0.name == primaryKey }) else { return nil }
        return column.path.components.count > 1 ? column : nil
    }
}
