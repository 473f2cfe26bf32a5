/// A body of several pages that does not decode, and the page where it does not: the transaction reads the pages the
/// fetch only checked the start of (``PaginationConfiguration/decidesOnlyByEmptiness``), so it says which.
package struct PageDecodingError: Error, Sendable, CustomStringConvertible {
    /// The page, from 1.
    package var page: Int
    package var error: BodyDecodingError

    package var description: String { "page \(page): \(error)" }
}
