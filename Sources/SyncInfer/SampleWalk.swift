import SyncCore
import SyncHTTP

/// How `syncd infer --pages N` walks the pages of its sample: where the next page is (by ``PageWalker``, the walk a
/// sync takes), and when to stop — the pages end, `N` pages were read, the bytes read reach their bound, or a page
/// cannot be read or repeats the one before. Whether pages may follow the last one read decides whether `required`
/// can be proposed (see ``InferredEndpoint/withholdsRequired``).
struct SampleWalk {
    /// The pagination proposed, as followed.
    let follow: PaginationConfiguration
    /// The most pages read.
    let pages: Int
    /// The bytes read so far, and how many more may be.
    private(set) var budget: SampleBudget
    private var walker: PageWalker
    /// The pages asked for so far, the first included.
    private(set) var pagesAsked = 1
    /// Whether pages may follow the last one read.
    private(set) var morePages = false
    /// Why the walk stopped before the pages ended, when a page could not be read.
    private(set) var stopReason: String?
    private var hasStopped = false
    /// The hash of the last page's bytes, to tell a page that repeats it.
    private var previousHash: Int

    init(
        follow: PaginationConfiguration, url: String, pages: Int, budget: SampleBudget,
        firstHash: Int
    ) {
        self.follow = follow
        self.pages = pages
        self.budget = budget
        self.walker = PageWalker(pagination: follow, url: url)
        self.previousHash = firstHash
    }

    /// The URL of the next page to read after the page of `facts`; nil when the walk ends there.
    ///
    /// - Parameter pagesRead: the pages whose records were read.
    mutating func next(after facts: PageWalker.Page, pagesRead: Int) -> String? {
        guard !hasStopped else { return nil }
        switch walker.next(after: facts) {
        case .done:
            morePages = false
            return nil
        case .failure(let sentence):
            morePages = true
            stopReason = sentence
            return nil
        case .next(let url, _):
            morePages = true
            guard pagesRead < pages else { return nil }
            pagesAsked += 1
            guard budget.nextLimit > 0 else {
                stop(because: "the pages before hold the \(budget.boundText) read over all pages at most")
                return nil
            }
            return url
        }
    }

    /// Takes a page just fetched into the count of bytes read; false, with the walk stopped, when its bytes are
    /// those of the page before (the pagination loops), whose records must not be counted twice.
    mutating func accept(hash: Int, count: Int) -> Bool {
        budget.add(count)
        guard hash != previousHash else {
            stop(because: "it is byte-identical to the page before: the pagination loops")
            return false
        }
        previousHash = hash
        return true
    }

    /// Ends the walk at the page asked for last, which could not be read, with pages possibly beyond it.
    mutating func stop(because reason: String) {
        hasStopped = true
        morePages = true
        stopReason = "stopped at page \(pagesAsked): \(reason)"
    }
}

/// The bytes a sample's pages may hold together: each page at most `maxBody`, all of them at most
/// `maxSampleBytes`.
struct SampleBudget {
    let maxBody: Int
    let maxSampleBytes: Int
    private(set) var bytesRead: Int

    init(maxBody: Int, maxSampleBytes: Int, firstPage: Int) {
        self.maxBody = maxBody
        self.maxSampleBytes = maxSampleBytes
        self.bytesRead = firstPage
    }

    /// The most bytes the next page may have: `maxBody`, or what is left, when less.
    var nextLimit: Int { max(0, min(maxBody, maxSampleBytes - min(bytesRead, maxSampleBytes))) }

    /// The bound on all pages, as stderr names it: `128 MiB`, or a count of bytes when it is no whole MiB.
    var boundText: String {
        maxSampleBytes % (1 << 20) == 0 ? "\(maxSampleBytes >> 20) MiB" : Counting.counted(maxSampleBytes, "byte")
    }

    /// Whether a page refused at `limit` was refused for what is left of the sample rather than for `maxBody`.
    func isSampleLimit(_ limit: Int) -> Bool { limit < maxBody }

    /// Counts a page's bytes.
    mutating func add(_ count: Int) {
        let (sum, overflow) = bytesRead.addingReportingOverflow(count)
        bytesRead = overflow ? Int.max : sum
    }
}
