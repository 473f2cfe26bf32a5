import SyncSupport

// Runs asked for out of schedule (a webhook's, a reader's): coalesced, so that a burst is one run, and a run already
// going is followed by exactly one more; for a child endpoint, a run for the parents the hooks named only.

extension ScheduleStateMachine {
    /// Asks for a run of `name` now, out of its schedule: an upstream's webhook said something changed.
    ///
    /// - Waiting, the endpoint is due at once (``nextAction(now:)`` starts it when a slot is free); asked again
    ///   before it starts, nothing more happens: a burst of requests is one run.
    /// - Running, one more run follows the run's success at once, however often it is asked meanwhile: the run
    ///   under way may have read the upstream before the change.
    /// - Backing off after failures, the backoff stands: a failing upstream is not polled faster because hooks
    ///   arrive, and a storm of them is when an upstream is least able to answer.
    /// - With a `parent` (a child endpoint's parent row, by key), the run walks only the parents requests named
    ///   (their union, over a burst), and the endpoint's full walk keeps its due time; a request without one makes
    ///   the run a full walk.
    ///
    /// - Parameters:
    ///   - followRunning: false when a run under way answers the request as well as a new one would (a reader who
    ///     wants a copy no older than a moment: the run under way ends with one); then nothing follows it.
    ///   - parent: The parent row's key (its `_parent`) whose children changed, for a child endpoint.
    /// - Returns: Whether a run is coming sooner for it (or is running, and another follows); false for an endpoint
    ///   not configured, or backing off.
    @discardableResult
    package mutating func request(
        _ name: String, now: Double, followRunning: Bool = true, parent: String? = nil
    ) -> Bool {
        guard let id = ids[name] else { return false }
        if entries[id].isRunning {
            guard followRunning else { return true }
            if let parent {
                if !entries[id].runAgain {
                    entries[id].againKeys = [parent]
                } else {
                    entries[id].againKeys?.insert(parent)
                }
            } else {
                entries[id].againKeys = nil
            }
            entries[id].runAgain = true
            return true
        }
        guard entries[id].consecutiveFailures == 0 else { return false }
        if let parent {
            if entries[id].targets != nil {
                entries[id].targets?.keys.insert(parent)
                return true
            }
            // A full walk is due already: it walks this parent too.
            guard entries[id].nextDue > now else { return true }
            entries[id].targets = Targets(
                keys: [parent], heldDue: entries[id].nextDue, heldReason: entries[id].reason)
        } else {
            entries[id].targets = nil
            guard entries[id].nextDue > now else { return true }
        }
        entries[id].nextDue = now
        entries[id].reason = ScheduleReason.webhook.text()
        // The endpoint's item at its old time stays in the heap until it comes first, and is passed over then
        // (``firstWaiting()``): a request costs O(log n), and a storm of them adds one item per endpoint.
        queue.insert(ScheduleQueue.Item(due: now, id: id))
        return true
    }

    /// The parents the run of `name` that is starting or running walks, by key; nil for a full walk.
    package func parents(of name: String) -> Set<String>? {
        ids[name].flatMap { entries[$0].targets?.keys }
    }

    /// After a run's success: a run for some parents only gives the endpoint back its full walk's due time, and the
    /// run asked for during it (``Entry/runAgain``) is due at once, for the parents it was asked for.
    mutating func settleRequests(_ id: Int, ran targets: Targets?, now: Double) {
        if let targets {
            entries[id].nextDue = max(now, targets.heldDue)
            entries[id].reason = targets.heldReason
        }
        guard entries[id].runAgain else { return }
        if let keys = entries[id].againKeys {
            entries[id].targets = Targets(keys: keys, heldDue: entries[id].nextDue, heldReason: entries[id].reason)
        }
        entries[id].nextDue = now
        entries[id].reason = ScheduleReason.webhook.text()
    }

    /// The earliest endpoint waiting, after dropping the items a ``request(_:now:followRunning:parent:)`` left
    /// behind: an item is current when its endpoint is not running and is due at the item's time.
    mutating func firstWaiting() -> ScheduleQueue.Item? {
        while let first = queue.first {
            let entry = entries[first.id]
            if !entry.isRunning, entry.nextDue == first.due { return first }
            _ = queue.removeFirst()
        }
        return nil
    }
}
