import SyncSupport

// Runs asked for out of schedule (a webhook's): coalesced, so that a burst is one run, and a run already going is
// followed by exactly one more.

extension ScheduleStateMachine {
    /// Asks for a run of `name` now, out of its schedule: an upstream's webhook said something changed.
    ///
    /// - Waiting, the endpoint is due at once (``nextAction(now:)`` starts it when a slot is free); asked again
    ///   before it starts, nothing more happens: a burst of requests is one run.
    /// - Running, one more run follows the run's success at once, however often it is asked meanwhile: the run
    ///   under way may have read the upstream before the change.
    /// - Backing off after failures, the backoff stands: a failing upstream is not polled faster because hooks
    ///   arrive, and a storm of them is when an upstream is least able to answer.
    ///
    /// - Parameter followRunning: false when a run under way answers the request as well as a new one would (a
    ///   reader who wants a copy no older than a moment: the run under way ends with one); then nothing follows it.
    /// - Returns: Whether a run is coming sooner for it (or is running, and another follows); false for an endpoint
    ///   not configured, or backing off.
    @discardableResult
    package mutating func request(_ name: String, now: Double, followRunning: Bool = true) -> Bool {
        guard let id = ids[name] else { return false }
        if entries[id].isRunning {
            if followRunning { entries[id].runAgain = true }
            return true
        }
        guard entries[id].consecutiveFailures == 0 else { return false }
        guard entries[id].nextDue > now else { return true }
        entries[id].nextDue = now
        entries[id].reason = ScheduleReason.webhook.text()
        // The endpoint's item at its old time stays in the heap until it comes first, and is passed over then
        // (``firstWaiting()``): a request costs O(log n), and a storm of them adds one item per endpoint.
        queue.insert(ScheduleQueue.Item(due: now, id: id))
        return true
    }

    /// The earliest endpoint waiting, after dropping the items a ``request(_:now:)`` left behind: an item is current
    /// when its endpoint is not running and is due at the item's time.
    mutating func firstWaiting() -> ScheduleQueue.Item? {
        while let first = queue.first {
            let entry = entries[first.id]
            if !entry.isRunning, entry.nextDue == first.due { return first }
            _ = queue.removeFirst()
        }
        return nil
    }
}
