extension SyncEndpoint {
    /// What an error status of the upstream means for an endpoint (`on_status = { 404 = "empty", 403 = "skip" }`):
    /// ``empty`` or ``skip``, instead of a failed run.
    ///
    /// ```swift
    /// endpoint.onStatus = [404: .empty, 410: .empty, 403: .skip]
    /// ```
    ///
    /// ## Topics
    ///
    /// - ``empty``
    /// - ``skip``
    public struct StatusAction: Sendable, Hashable, CustomStringConvertible {
        /// The word syncd.toml writes: `empty` or `skip`.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// The answer is an empty collection: a snapshot deletes the stored rows (the empty-snapshot guard and
        /// `max_delete` still hold, so a table with rows is emptied only with `allow_empty`), an incremental endpoint
        /// changes nothing. The run succeeds, its status recorded. Collections only: a document has no empty form.
        public static let empty = StatusAction("empty")
        /// The stored data stays as it was, as after a 304: the run succeeds, recorded as `not_modified` with the
        /// status the upstream sent.
        public static let skip = StatusAction("skip")

        /// Reads `empty` or `skip`; nil for any other word.
        package init?(word: String) {
            switch word {
            case "empty": self = .empty
            case "skip": self = .skip
            default: return nil
            }
        }
    }
}

/// The one decision of what an answer's status means for a request of an endpoint (``SyncEndpoint/onStatus``): the
/// engine asks it for a collection's or a document's first page, and a child endpoint's walk for each parent's first
/// page (a 404 for one parent: that parent's children are empty; `skip`: its stored children stay).
///
/// A mapped status on a later page of a walk still fails the run: the first page said the collection is there, so a
/// later page that is not is a walk that broke half-way, and neither an empty set (which would delete what the
/// earlier pages held) nor keeping the data would say what the upstream holds.
package struct StatusPolicy: Sendable, Hashable {
    /// What to do with an answer.
    package enum Decision: Sendable, Hashable {
        /// Fail the run, as for any error status.
        case fail
        /// Apply an empty set of records.
        case empty
        /// Keep the stored data, as after a 304.
        case skip
    }

    /// The statuses `on_status` may map: the client and server errors but 401, which goes through credentials and
    /// OAuth2 renewal (a 2xx or a 304 has its own meaning).
    package static let mappable: ClosedRange<Int> = 400...599
    /// What may follow the key, in the configuration's words.
    package static let expectedStatus =
        "use a status from 400 to 599 but 401: a 2xx or 304 has its own meaning, and a 401 renews credentials"

    /// The endpoint's statuses and what each means.
    package var actions: [Int: SyncEndpoint.StatusAction]

    package init(_ actions: [Int: SyncEndpoint.StatusAction] = [:]) {
        self.actions = actions
    }

    /// What an answer with `status` means: ``Decision/fail`` for any status the policy does not map, a 2xx or 304
    /// included (their own paths handle them before asking).
    package func decision(for status: Int) -> Decision {
        guard Self.canMap(status), let action = actions[status] else { return .fail }
        return action == .empty ? .empty : .skip
    }

    /// Whether `on_status` may map `status`.
    package static func canMap(_ status: Int) -> Bool {
        mappable.contains(status) && status != 401
    }

    /// Why the endpoint's `on_status` cannot be used, one sentence each starting `on_status: `.
    package static func problems(_ actions: [Int: SyncEndpoint.StatusAction], isDocument: Bool) -> [String] {
        actions.keys.sorted().compactMap { status in
            if !canMap(status) { return "on_status: \(status) cannot be mapped: \(expectedStatus)" }
            if isDocument, actions[status] == .empty {
                return "on_status: \(status) = \"empty\": a document endpoint takes only \"skip\" (a document has "
                    + "no empty form)"
            }
            return nil
        }
    }

    /// `{ 403 = "skip", 404 = "empty" }`, as syncd.toml writes it, by status.
    package static func text(_ actions: [Int: SyncEndpoint.StatusAction]) -> String {
        "{ " + actions.keys.sorted().map { "\($0) = \"\(actions[$0]?.description ?? "")\"" }.joined(separator: ", ")
            + " }"
    }
}

extension EndpointConfiguration {
    /// What the endpoint's `on_status` makes of an answer's status.
    package var statusPolicy: StatusPolicy { StatusPolicy(declared.onStatus) }
}
