/// A body of several pages that does not decode, and the page where it does not: the transaction reads the pages the
/// fetch only checked the start of (``PaginationConfiguration/decidesOnlyByEmptiness``), so it says which.
package struct PageDecodingError: Error, Sendable, CustomStringConvertible {
    /// The page, from 1.
    package var page: Int
    package var error: BodyDecodingError
    /// The parent whose child walk the page is of, as JSON; nil for an endpoint without a parent.
    package var parent: String?

    package init(page: Int, error: BodyDecodingError, parent: String? = nil) {
        self.page = page
        self.error = error
        self.parent = parent
    }

    package var description: String { (parent.map { "parent \($0): " } ?? "") + "page \(page): \(error)" }
}
