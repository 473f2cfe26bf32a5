import SyncCore

/// Chooses the records among arrays of objects of the same size, each already walked.
///
/// An array is side-loaded when every key of its records is referred to by another array's records (Mastodon's
/// grouped notifications carry `statuses` beside `notification_groups`, whose `status_id` names them); it is not
/// the collection. Among the others, an array whose records carry a key comes first, then the one with the most
/// fields, then the first in the body.
struct RecordsChoice {
    /// At most this many arrays of the same size are walked and compared, the first in the body: comparing each
    /// with every other grows with the square of their number, and a response with more is not an API's envelope.
    static let maximumContenders = 8

    /// One array of the same size as the others, walked.
    struct Contender {
        var candidate: RecordsCandidate
        var tree: ShapeTree
        var inference: ColumnInference
    }

    /// The array chosen, as a position in the contenders.
    private(set) var chosen = 0
    /// Why it was chosen over the others, for stderr: `"statuses" is side-loaded (these records refer to its keys)`.
    private(set) var reason: String?

    init(_ contenders: [Contender]) {
        guard contenders.count > 1 else { return }
        let keys = contenders.map { contender in
            contender.inference.primaryKeyNode.flatMap { contender.tree.nodes[$0].seenValues } ?? []
        }
        let references = contenders.map { $0.tree.references(excluding: $0.inference.primaryKeyNode) }
        // The contender whose references hold every key of another, by position.
        let loadedBy = contenders.indices.map { position in
            contenders.indices.first { other in
                other != position && !keys[position].isEmpty && keys[position].isSubset(of: references[other])
            }
        }
        var remaining = contenders.indices.filter { loadedBy[$0] == nil }
        if remaining.isEmpty { remaining = Array(contenders.indices) }
        let rank = { (position: Int) in
            (contenders[position].inference.primaryKeyNode == nil ? 1 : 0, -contenders[position].inference.fieldCount)
        }
        chosen = remaining.min { rank($0) < rank($1) } ?? 0
        let winner = contenders[chosen]
        let explanations = contenders.indices.filter { $0 != chosen }.map { position in
            let contender = contenders[position]
            let name = "\"\(contender.candidate.path)\""
            if remaining.count < contenders.count, let referrer = loadedBy[position] {
                let who =
                    referrer == chosen ? "these records refer" : "\"\(contenders[referrer].candidate.path)\" refers"
                return "\(name) is side-loaded (\(who) to its keys)"
            }
            if contender.inference.primaryKeyNode == nil, winner.inference.primaryKeyNode != nil {
                return "\(name) has no key"
            }
            if contender.inference.fieldCount < winner.inference.fieldCount {
                return "\(name) has fewer fields (\(contender.inference.fieldCount))"
            }
            return "\(name) is no better and comes later"
        }
        reason = "of the arrays of \(winner.candidate.count), " + explanations.joined(separator: ", ")
    }
}
