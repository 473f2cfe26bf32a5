import SyncSupport

extension ScheduleStateMachine {
    /// Takes back a start that another node's claim prevented (see ``EndpointLeasing``): the endpoint is not
    /// running here after all, and is due again at `due`. Its failures are not counted up: it did not run.
    ///
    /// - Parameters:
    ///   - name: An endpoint ``nextAction(now:)`` started.
    ///   - due: When to try again, in seconds since 1970.
    /// - Returns: Whether the endpoint was running here (and is still configured).
    @discardableResult
    package mutating func postpone(_ name: String, until due: Double) -> Bool {
        storing.remove(name)
        guard running.remove(name) != nil, let id = ids[name] else { return false }
        entries[id].isRunning = false
        entries[id].startedInBacklog = false
        // A run asked for meanwhile is this one, when it is claimed (the scheduler keeps the request).
        entries[id].runAgain = false
        entries[id].againKeys = nil
        entries[id].nextDue = due.isFinite ? due : entries[id].nextDue
        queue.insert(ScheduleQueue.Item(due: entries[id].nextDue, id: id))
        return true
    }

    /// Sets an endpoint's failures since its last success to the count the nodes share, before a run that may add
    /// one: a node's backoff then continues where another node's left off.
    package mutating func adoptFailures(_ name: String, _ consecutiveFailures: Int) {
        guard let id = ids[name] else { return }
        entries[id].consecutiveFailures = max(0, consecutiveFailures)
    }

    /// The configured interval of an endpoint, in seconds; nil for one not configured.
    package func interval(of name: String) -> Double? {
        ids[name].map { entries[$0].endpoint.interval.scheduleSeconds }
    }
}
