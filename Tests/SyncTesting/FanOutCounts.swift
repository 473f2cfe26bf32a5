package import SyncCore

/// A fan-out's counts as `syncd status` lists them: walked, not modified, empty, skipped, failed, left.
package func fanOutCounts(_ counts: SyncSummary.FanOut?) -> [Int]? {
    counts.map { [$0.walked, $0.notModified, $0.empty, $0.skipped, $0.failed, $0.left] }
}
