package import SyncCore
import SyncHTTP

/// Proposes an `[[endpoint]]` for a JSON response: finds the records, walks every one of them and infers columns,
/// types, required columns, a primary key and, from the envelope around the records, pagination.
///
/// The body is read twice as bytes, never as a tree: once to check its grammar, find the arrays of objects and note
/// the envelope's scalars, once to walk the records into a ``ShapeTree`` (every largest array, when several have
/// the same size, so that ``RecordsChoice`` can compare them). Memory stays at the body plus one node per distinct
/// path.
package struct EndpointInference {
    package var name: String
    package var url: String
    /// The records path to use instead of searching for one.
    package var recordsPath: JSONPath?
    /// The response's `Link` fields when it came over HTTP; nil when they could not be seen (a file, stdin).
    package var links: [String]?

    package init(name: String, url: String, recordsPath: JSONPath? = nil, links: [String]? = nil) {
        self.name = name
        self.url = url
        self.recordsPath = recordsPath
        self.links = links
    }

    /// An inference of the records at `records`, a JSON path as `--records` takes it; nil searches for them.
    ///
    /// - Throws: ``InferenceError/badRecordsPath``, saying what is wrong with the path.
    package init(name: String, url: String, records: String?) throws(InferenceError) {
        self.init(name: name, url: url)
        guard let records else { return }
        do {
            recordsPath = try JSONPath(parsing: records)
        } catch {
            throw .badRecordsPath(error)
        }
    }

    /// A valid endpoint name for a URL or a file path: its last segment without extension (`/api/users.json` →
    /// `users`), snake_cased, else its host, else `endpoint`.
    package static func defaultName(for location: String) -> String {
        IdentifierNaming.endpointName(from: location)
    }

    /// Infers the endpoint, and the shapes behind it (for ``SwiftModelWriter``).
    ///
    /// - Throws: ``InferenceError``.
    package func infer(_ body: [UInt8]) throws(InferenceError) -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        let result: Result<(InferredEndpoint, InferredShapes), InferenceError> = body.withUnsafeBytes { bytes in
            Result { () throws(InferenceError) in try infer(bytes) }
        }
        return try result.get()
    }

    /// Infers the endpoint from bytes in place, such as a fetched body's storage, without copying them: the one page
    /// there is (a file, standard input), so that no column is proposed required when its pagination says more
    /// pages follow.
    ///
    /// - Throws: ``InferenceError``.
    package func infer(_ bytes: UnsafeRawBufferPointer) throws(InferenceError) -> (InferredEndpoint, InferredShapes) {
        let sample = try sample(bytes)
        return sample.result(morePages: sample.mayContinueAfterFirst)
    }

    /// Reads the first page: finds the records, walks them into a summary and proposes pagination, so that later
    /// pages can be added with ``InferenceSample/add(_:)``.
    ///
    /// - Throws: ``InferenceError``.
    package func sample(_ bytes: UnsafeRawBufferPointer) throws(InferenceError) -> InferenceSample {
        var locator = RecordsLocator(bytes, wanted: recordsPath)
        do {
            try locator.run()
        } catch {
            throw .notJSON(error, in: bytes.assumingMemoryBound(to: UInt8.self))
        }
        let contenders = try contenders(from: locator)
        var endpoint = InferredEndpoint(
            name: name, url: url, recordsPath: nil, recordCount: 0, columns: [], primaryKey: nil, leftOut: [],
            otherCandidates: [])
        guard !contenders.isEmpty else {
            var walker = ShapeWalker(scanner: JSONScanner(bytes))
            walker.scanner.skipByteOrderMark()
            walker.scanner.skipWhitespace()
            do { try walker.walkRecord(depth: 0) } catch { throw .notJSON(error, in: walker.scanner.buffer) }
            return InferenceSample(first: endpoint, tree: walker.tree, facts: PageWalker.Page(url: url, records: 0))
        }
        var walked: [RecordsChoice.Contender] = []
        var lastRecords: [Int?] = []
        for candidate in contenders {
            var walker = ShapeWalker(
                scanner: JSONScanner(bytes, position: candidate.start + 1),
                tree: ShapeTree(collectsReferences: contenders.count > 1))
            do {
                lastRecords.append(try Self.walkRecords(&walker, depth: candidate.depth + 1))
            } catch {
                throw .notJSON(error, in: walker.scanner.buffer)
            }
            walked.append(.init(candidate: candidate, tree: walker.tree, inference: ColumnInference(tree: walker.tree)))
        }
        let choice = RecordsChoice(walked)
        let chosen = walked[choice.chosen]
        endpoint.recordsPath = chosen.candidate.path
        endpoint.otherCandidates = locator.candidates.filter { $0 != chosen.candidate }.map { ($0.path, $0.count) }
        endpoint.choice = choice.reason
        endpoint.pagination = PaginationProposal.propose(
            records: chosen.candidate.path, envelope: locator.envelope,
            key: chosen.inference.primaryKeyPosition.map { chosen.inference.columns[$0].path }, links: links)
        let follow = endpoint.pagination?.follow
        var facts = Self.facts(records: chosen.tree.recordCount, envelope: locator.envelope, in: bytes, follow: follow)
        facts.url = url
        facts.links = links ?? []
        facts.lastRecordCursor = Self.lastRecordCursor(lastRecords[choice.chosen], in: bytes, follow: follow)
        return InferenceSample(first: endpoint, tree: chosen.tree, facts: facts)
    }

    /// The arrays that could be the records: the wanted one, the root array, else the largest ones (several when
    /// they have the same size, for ``RecordsChoice``: the first ``RecordsChoice/maximumContenders`` in the body);
    /// none for a document, which a root array of anything but objects is too.
    private func contenders(from locator: RecordsLocator) throws(InferenceError) -> [RecordsCandidate] {
        if let recordsPath {
            if let found = locator.candidates.first(where: { $0.path == recordsPath }) { return [found] }
            let kind = locator.wantedKind.map { "is \($0)" } ?? "is not in the response"
            throw .noRecords("\"\(recordsPath)\" \(kind), not an array of objects")
        }
        if let root = locator.candidates.first(where: { $0.path == .root }) { return [root] }
        if locator.firstByte == JSONByte.openBracket {
            guard locator.rootIsEmpty else { return [] }
            throw .noRecords(
                "the response is an empty array, with no records to infer columns from; "
                    + "infer from a response that holds some")
        }
        guard let largest = locator.candidates.max(by: { $0.count < $1.count }) else { return [] }
        let same = locator.candidates.lazy.filter { $0.count == largest.count }
        return Array(same.prefix(RecordsChoice.maximumContenders))
    }

    /// Walks each element of the array whose `[` is just behind the cursor.
    ///
    /// - Returns: the offset of the last record, nil when the array is empty.
    static func walkRecords(_ walker: inout ShapeWalker, depth: Int) throws(JSONSyntaxError) -> Int? {
        walker.scanner.skipWhitespace()
        if try walker.scanner.currentByte(inside: .array) == JSONByte.closeBracket { return nil }
        while true {
            let start = walker.scanner.position
            try walker.walkRecord(depth: depth)
            guard try walker.scanner.skipCommaOrArrayEnd() else { return start }
        }
    }
}

/// The shapes of the records (or of the document) that an endpoint was inferred from.
package struct InferredShapes: Sendable {
    let tree: ShapeTree
    /// Whether the tree's root stands for each record (true) or for the whole document.
    let isCollection: Bool
}
