import SyncCore
package import SyncHTTP

/// What `syncd infer` has read so far, page after page: the first page's findings (the records path, the arrays
/// passed over, the pagination proposed) and a streaming summary of every record read, a ``ShapeTree`` of counts
/// and key hashes. A page's bytes are needed only while it is added; nothing of them is kept but that summary.
///
/// ```swift
/// var sample = try inference.sample(firstPageBytes)
/// let facts = try sample.add(secondPageBytes)   // nil: the page has no records path
/// let (endpoint, shapes) = sample.result(morePages: false)
/// ```
package struct InferenceSample {
    /// The endpoint as the first page shows it; its columns and key are decided again in ``result(morePages:)``.
    private(set) var first: InferredEndpoint
    /// Every record read, summarized.
    private(set) var tree: ShapeTree
    /// The pages whose records are in ``tree``.
    package private(set) var pagesRead = 1
    /// What the first page showed of pagination, for ``PageWalker``: its records, captured values and last record.
    package let firstFacts: PageWalker.Page

    init(first: InferredEndpoint, tree: ShapeTree, facts: PageWalker.Page) {
        self.first = first
        self.tree = tree
        self.firstFacts = facts
    }

    /// The pagination proposed from the first page; nil for a document, or when nothing suggested one.
    package var pagination: PaginationProposal? { first.pagination }

    /// Walks the records of a later page into the summary.
    ///
    /// - Returns: the page's facts for ``PageWalker`` (its url, links and repetition left to the caller); nil when
    ///   the page has no array at the records path (nor an empty one), which ends the sample.
    /// - Throws: ``InferenceError`` when the page is not JSON.
    package mutating func add(_ bytes: UnsafeRawBufferPointer) throws(InferenceError) -> PageWalker.Page? {
        guard let recordsPath = first.recordsPath else { return nil }
        var locator = RecordsLocator(bytes, wanted: recordsPath)
        do {
            try locator.run()
        } catch {
            throw .notJSON(error, in: bytes.assumingMemoryBound(to: UInt8.self))
        }
        let follow = first.pagination?.follow
        guard let candidate = locator.candidates.first(where: { $0.path == recordsPath }) else {
            guard locator.wantedIsEmpty else { return nil }
            return EndpointInference.facts(records: 0, envelope: locator.envelope, in: bytes, follow: follow)
        }
        let before = tree.recordCount
        var walker = ShapeWalker(scanner: JSONScanner(bytes, position: candidate.start + 1), tree: tree)
        let lastRecord: Int?
        do {
            lastRecord = try EndpointInference.walkRecords(&walker, depth: candidate.depth + 1)
        } catch {
            throw .notJSON(error, in: walker.scanner.buffer)
        }
        tree = walker.tree
        pagesRead += 1
        var facts = EndpointInference.facts(
            records: tree.recordCount - before, envelope: locator.envelope, in: bytes, follow: follow)
        facts.lastRecordCursor = EndpointInference.lastRecordCursor(lastRecord, in: bytes, follow: follow)
        return facts
    }

    /// The endpoint inferred from every record read, and the shapes behind it.
    ///
    /// - Parameter morePages: whether pages may follow the last one read (the walk stopped early, or could not be
    ///   followed); with one page read, no column is then proposed required.
    package func result(morePages: Bool) -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        var endpoint = first
        endpoint.pagesRead = pagesRead
        endpoint.morePages = morePages
        guard endpoint.recordsPath != nil else { return (endpoint, InferredShapes(tree: tree, isCollection: false)) }
        let inference = ColumnInference(tree: tree)
        endpoint.recordCount = tree.recordCount
        endpoint.columns = inference.columns
        endpoint.leftOut = inference.leftOut
        endpoint.primaryKey = nil
        if let position = inference.primaryKeyPosition {
            endpoint.primaryKey = endpoint.columns[position].name
            endpoint.columns[position].required = true
        }
        return (endpoint, InferredShapes(tree: tree, isCollection: true))
    }

    /// Whether pages may follow the first when it is the only one read (a file, standard input, or `--pages 1`):
    /// when a pagination was proposed and, followed, would not end here; unsure when it cannot be followed.
    package var mayContinueAfterFirst: Bool {
        guard let pagination else { return false }
        guard let follow = pagination.follow else { return true }
        var walker = PageWalker(pagination: follow, url: first.url)
        return walker.next(after: firstFacts) != .done
    }
}
