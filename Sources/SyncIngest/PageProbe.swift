package import SyncDecoding

/// What the fetch of a paged body reads of each page as it arrives, for ``PageWalker``'s choice of the next one: the
/// values at the pagination's paths, and the page's records, checked and counted. The records themselves are the
/// transaction's, which decodes them again.
///
/// When only an empty page ends the walk (``PaginationConfiguration/decidesOnlyByEmptiness``), the page is read up
/// to its first record and no further: the rest is left to the transaction, which checks it as it stores it.
///
/// ```swift
/// var probe = PageProbe(decoder: endpoint.recordDecoder, firstRecordOnly: true)
/// for chunk in chunks { try probe.feed(chunk) }
/// let records = try probe.finish()   // 1 once a record was found: "not empty"
/// ```
package struct PageProbe {
    /// The page's decoder, while it reads; it still holds what it captured after ``finish()``.
    package private(set) var decoder: ChunkedRecordDecoder
    /// Whether the page was read up to its first record, and no further.
    private(set) var sawFirstRecord = false
    /// What the decoder threw, when the body is read to its end regardless (`readsPastFailure`).
    private(set) var failure: (any Error)?
    private let firstRecordOnly: Bool
    private let readsPastFailure: Bool

    /// - Parameters:
    ///   - paths: values outside the records to capture (cursors, flags, counts, GraphQL's errors).
    ///   - lastRecordPath: the path in each record whose value in the last one is the next cursor.
    ///   - firstRecordOnly: read up to the first record only.
    ///   - readsPastFailure: keep reading the body after a decoding error (GraphQL's errors come after a null `data`).
    package init(
        decoder: RecordDecoder, capturing paths: [JSONPath] = [], lastRecordPath: JSONPath? = nil,
        firstRecordOnly: Bool = false, readsPastFailure: Bool = false
    ) {
        // A counting decoder yields no record: finding the first one takes a decoder that yields them.
        self.decoder = ChunkedRecordDecoder(
            decoder, capturing: paths, lastRecordPath: lastRecordPath, decodingRecords: firstRecordOnly)
        self.firstRecordOnly = firstRecordOnly
        self.readsPastFailure = readsPastFailure
    }

    /// Reads the page's next bytes; once the first record was found (with `firstRecordOnly`), or the decoder failed
    /// (with `readsPastFailure`), reads nothing more.
    ///
    /// - Throws: ``BodyDecodingError``, unless `readsPastFailure`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard failure == nil, !sawFirstRecord else { return }
        let firstRecordOnly = self.firstRecordOnly
        do {
            try decoder.feed(bytes) { _, _ in
                if firstRecordOnly { throw FirstRecordFound() }
            }
        } catch is FirstRecordFound {
            sawFirstRecord = true
        } catch  where readsPastFailure {
            failure = error
        }
    }

    /// The page's records, once its last byte was read: at least 1 when only its first record was read.
    ///
    /// - Throws: What ``feed(_:)`` kept, or ``BodyDecodingError`` for a page cut short or without its records.
    package mutating func finish() throws -> Int {
        if sawFirstRecord { return 1 }
        if let failure { throw failure }
        return try decoder.finish()
    }

    private struct FirstRecordFound: Error {}
}
