import Foundation
package import SampleUpstream
import Synchronization

/// Records as JSON for paged answers: `{"id": N, "name": "user N"}` for each id.
package func recordsJSON(_ ids: some Sequence<Int>) -> String {
    "[" + ids.map { #"{"id": \#($0), "name": "user \#($0)"}"# }.joined(separator: ", ") + "]"
}

/// A JSON answer with extra headers.
package func jsonAnswer(_ json: String, status: Int = 200, headers: [(name: String, value: String)] = [])
    -> UpstreamResponse
{
    .json(Array(json.utf8), status: status, headers: headers)
}

/// Counts the requests for each page and makes chosen pages fail, for a paged route of ``TestUpstream``.
package final class PageFaults: Sendable {
    private let failures = Mutex<[Int: [UpstreamResponse]]>([:])
    private let counts = Mutex<[Int: Int]>([:])

    package init() {}

    /// Page `page` answers `responses` first, one per request, then its normal answer.
    package func fail(page: Int, with responses: [UpstreamResponse]) {
        failures.withLock { $0[page] = responses }
    }

    /// Requests seen for `page`.
    package func requests(forPage page: Int) -> Int { counts.withLock { $0[page] ?? 0 } }

    /// The fault for this request of `page`, if one is left.
    package func answer(page: Int) -> UpstreamResponse? {
        counts.withLock { $0[page, default: 0] += 1 }
        return failures.withLock { failures in
            guard var list = failures[page], !list.isEmpty else { return nil }
            let first = list.removeFirst()
            failures[page] = list
            return first
        }
    }
}

/// A paged collection of `total` records, `size` a page, ids from 1: the records of page `n` (from 1).
package func pageRecords(_ page: Int, size: Int, total: Int) -> String {
    let first = (page - 1) * size + 1
    return recordsJSON(first..<min(total + 1, first + size))
}

/// A value a test changes while an upstream's handler reads it.
package final class SharedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    package init(_ value: Value) { storage = Mutex(value) }

    package var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
