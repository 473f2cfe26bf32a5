// A child endpoint's parent counts as its endpoint's row keeps them (`syncd_endpoints.parents`, in every store): a
// small JSON object syncd writes, read back as input — a bounded, checked decode in which anything else reads as none.

import SyncDecoding
import SyncSupport

extension SyncSummary.FanOut {
    /// The longest stored text read: six counts and their names take under 130 bytes.
    static let maxStoredBytes = 512
    /// The largest count read back: more parent rows than a table holds.
    static let maxStoredCount = 1_000_000_000_000

    /// The counts' names in the stored object, in the order written.
    private static let fieldNames = ["walked", "not_modified", "empty", "skipped", "failed", "left"]
    private static let paths = fieldNames.map { JSONPath(components: [.key($0)]) }

    /// The counts in the order of ``fieldNames``.
    private var values: [Int] { [walked, notModified, empty, skipped, failed, left] }

    /// The stored form: `{"walked":3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}`.
    package var storedJSON: String {
        "{" + zip(Self.fieldNames, values).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
    }

    /// The counts of a stored text; nil for anything but a JSON object with each of the six counts a whole number
    /// from 0 to ``maxStoredCount`` (other fields are ignored), or a text longer than ``maxStoredBytes``.
    package init?(storedJSON text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxStoredBytes, let envelope = EnvelopeCapture.object(bytes, paths: Self.paths)
        else { return nil }
        var counts: [Int] = []
        for path in Self.paths {
            // A count is digits only: no sign, fraction or exponent, and few enough that the bound holds.
            guard case .number(let literal)? = envelope.value(at: path), (1...13).contains(literal.utf8.count),
                literal.utf8.allSatisfy(ASCIIDigits.isDigit), let count = Int(literal), count <= Self.maxStoredCount
            else { return nil }
            counts.append(count)
        }
        self.init()
        (walked, notModified, empty) = (counts[0], counts[1], counts[2])
        (skipped, failed, left) = (counts[3], counts[4], counts[5])
    }

    /// The counts a store's `parents` column holds; nil for NULL and for a value ``init(storedJSON:)`` does not read.
    package static func stored(_ text: String?) -> Self? {
        text.flatMap(Self.init(storedJSON:))
    }
}
