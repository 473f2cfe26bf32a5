internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore
import SyncSupport

/// `GET /v1/endpoints` and `GET /healthz`: the state of every endpoint, for people and monitors.
extension ReadModel {
    /// Each configured endpoint's state and freshness, in the configuration's order.
    ///
    /// ```json
    /// [{"name":"users","kind":"collection","url":"https://…","version":3,"records":300,"fresh":true,
    ///   "stale_reason":null,"age":12,"ttl":48,"changed_at":"…","last_success_at":"…","last_attempt_at":"…",
    ///   "last_status":200,"last_error":null,"consecutive_failures":0,"next_due_at":"…",
    ///   "node":null,"etag":"\"9f2c….3\""}]
    /// ```
    ///
    /// An endpoint with OAuth2 auth also says when its token was last renewed and when it expires
    /// (`token_renewed_at`, `token_expires_at`), never the token; one with a parent, what its last run did per parent
    /// (``parentsObject(_:)``); one that the daemon is syncing now has a `running` object (``runningObject(_:)``).
    func endpointsList() async throws(ReadAPIError) -> Response {
        let snapshot = try await currentSnapshot()
        let running = runningByName()
        var objects: [String] = []
        for endpoint in allEndpoints() {
            let name = endpoint.name
            let served = snapshot.states[name]
            let state = served?.state
            var fields: [(String, String)] = [
                ("name", string(name)),
                ("kind", string(endpoint.isDocument ? "document" : "collection")),
                ("url", string(endpoint.redactedURL)),
            ]
            if let served, let state {
                let freshness = freshness(endpoint, served)
                fields += [
                    ("version", String(state.version)),
                    ("records", String(state.recordCount)),
                    ("fresh", freshness.isFresh ? "true" : "false"),
                    ("stale_reason", freshness.staleReason.map { string($0.description) } ?? "null"),
                    ("age", String(freshness.age)),
                    ("ttl", String(freshness.ttl)),
                    ("changed_at", optional(state.changedAt)),
                    ("last_success_at", optional(state.lastSuccessAt)),
                    ("last_attempt_at", optional(state.lastAttemptAt)),
                    ("last_status", state.lastStatus.map(String.init) ?? "null"),
                    ("last_error", optional(state.lastError)),
                    ("consecutive_failures", String(state.consecutiveFailures)),
                    ("next_due_at", optional(state.nextDueAt)),
                    ("schedule_reason", optional(state.scheduleReason)),
                    ("node", optional(state.lastNode)),
                    ("etag", string(served.etag)),
                ]
                if let counts = state.parents { fields.append(("parents", parentsObject(counts))) }
            } else {
                fields += [
                    ("version", "0"), ("records", "0"), ("fresh", "false"),
                    ("stale_reason", string(SyncCache.Freshness.StaleReason.neverSynced.description)),
                ]
            }
            if let auth = endpoint.credential, auth.isOAuth2, let stateDirectory {
                let times = SyncCache.tokenTimes(of: auth, stateDirectory: stateDirectory)
                fields += [
                    ("token_renewed_at", optional(times?.renewedAt)), ("token_expires_at", optional(times?.expiresAt)),
                ]
            }
            if let progress = running[name] { fields.append(("running", runningObject(progress))) }
            objects.append("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-cache"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: "[" + objects.joined(separator: ",") + "]")))
    }

    /// The daemon's running syncs by endpoint name.
    func runningByName() -> [String: SyncProgress] {
        Dictionary(syncing.running.map { ($0.endpoint, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A running sync as JSON: since when, its pages, records (null when not counted), bytes, the totals the upstream
    /// announces and the parents walked, each null when unknown.
    ///
    /// ```json
    /// {"since":"2026-12-06T18:40:00.000Z","pages":12,"records":1180,"bytes":2411724,"total_records":4000,
    ///  "total_pages":null,"parents_done":null,"parents_total":null}
    /// ```
    func runningObject(_ progress: SyncProgress) -> String {
        let counts: [(String, Int?)] = [
            ("pages", progress.pages), ("records", progress.records), ("bytes", progress.bytes),
            ("total_records", progress.totalRecords), ("total_pages", progress.totalPages),
            ("parents_done", progress.parentsDone), ("parents_total", progress.parentsTotal),
        ]
        let fields =
            [("since", string(Timestamp.format(progress.startedAt)))]
            + counts.map { ($0, $1.map(String.init) ?? "null") }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// What the last run of an endpoint with a parent did per parent row, as JSON.
    ///
    /// ```json
    /// {"walked":40,"not_modified":38,"empty":1,"skipped":0,"failed":0,"left":0}
    /// ```
    func parentsObject(_ counts: SyncSummary.FanOut) -> String {
        let fields = [
            ("walked", counts.walked), ("not_modified", counts.notModified), ("empty", counts.empty),
            ("skipped", counts.skipped), ("failed", counts.failed), ("left", counts.left),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `GET /v1/endpoints/{name}/drift`: the endpoint's schema-drift journal, empty before its first sync.
    ///
    /// ```json
    /// {"endpoint":"users","drift":[{"kind":"new_field","path":"nickname","detail":null,
    ///   "first_seen":"2026-11-28T07:00:00.000Z","last_seen":"…","count":3,"example":"\"Amazing\""}]}
    /// ```
    func drift(_ name: String) async throws(ReadAPIError) -> Response {
        _ = try endpoint(name)
        let journal = try await read { reader in try reader.drift(name) }
        let entries = journal.map { drift in
            let fields: [(String, String)] = [
                ("kind", string(drift.kind.rawValue)), ("path", string(drift.path)), ("detail", optional(drift.detail)),
                ("first_seen", string(drift.firstSeen)), ("last_seen", string(drift.lastSeen)),
                ("count", String(drift.count)), ("example", optional(drift.example)),
            ]
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-cache"
        let body = "{\"endpoint\":\(string(name)),\"drift\":[" + entries.joined(separator: ",") + "]}"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// `{"status":"ok"}` once the database answers; 503 otherwise.
    func health() async throws(ReadAPIError) -> Response {
        let snapshot = try await currentSnapshot()
        let endpoints = allEndpoints()
        let stale = endpoints.filter { endpoint in
            snapshot.states[endpoint.name].map { !freshness(endpoint, $0).isFresh } ?? true
        }.count
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-store"
        let body = "{\"status\":\"ok\",\"endpoints\":\(endpoints.count),\"stale\":\(stale)}"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    private func string(_ text: String) -> String { SyncCache.SQLValue.text(text).json }
    private func optional(_ text: String?) -> String { text.map(string) ?? "null" }
}
