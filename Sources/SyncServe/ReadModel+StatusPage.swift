internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore

/// `GET /`: the status page for a browser, or `/v1/endpoints`' JSON for a client that asks for JSON.
extension ReadModel {
    /// The status page, from the same snapshot and freshness as `/v1/endpoints` and each listed endpoint's last
    /// runs; `Accept: application/json` (without `text/html`) gets ``endpointsList()`` instead.
    func statusPage(request: Request) async throws(ReadAPIError) -> Response {
        // Several Accept fields are one list (RFC 9110 §5.3).
        let accept = request.headers[values: .accept]
        if AcceptHeader.wantsJSON(accept.isEmpty ? nil : accept.joined(separator: ",")) {
            var response = try await endpointsList()
            response.headers[.vary] = "Accept"
            return response
        }
        let page = try await makeStatusPage()
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // The page changes with the clock (ages, next polls), not only with commits: nothing keeps it.
        headers[.cacheControl] = "no-store"
        headers[.vary] = "Accept"
        headers[.xContentTypeOptions] = "nosniff"
        // No script, frame, form or fetch of any kind: only the page's own inline style.
        headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        headers[StatusPageFields.referrerPolicy] = "no-referrer"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page.html())))
    }

    /// The page's rows: the first ``StatusPage/maxEndpoints`` configured endpoints, in the configuration's order.
    func makeStatusPage() async throws(ReadAPIError) -> StatusPage {
        let snapshot = try await currentSnapshot()
        let all = allEndpoints()
        let listed = Array(all.prefix(StatusPage.maxEndpoints))
        let names = listed.map(\.name)
        let runs = try await read { reader in
            try reader.runs(of: names, limit: StatusPage.runsPerChart)
        }
        let runsByName = Dictionary(grouping: runs, by: \.endpoint)
        let running = runningByName()
        let rows = listed.map { endpoint in
            let name = endpoint.name
            let kind = endpoint.isDocument ? "document" : "collection"
            guard let served = snapshot.states[name] else {
                return StatusPage.Row(
                    name: name, kind: kind, freshness: .stale,
                    reason: SyncCache.Freshness.StaleReason.neverSynced.description, lastStatus: nil, lastError: nil,
                    consecutiveFailures: 0, records: 0, version: 0, lastSuccess: nil, age: 0, nextPoll: nil,
                    runs: runsByName[name] ?? [], running: running[name])
            }
            let stored = served.state
            let freshness = freshness(endpoint, served)
            let scheduled = served.schedule.nextDue != nil || served.schedule.lastSuccess != nil
            let state = StatusPage.Freshness(freshness, lastPollFailed: served.schedule.lastPollFailed)
            return StatusPage.Row(
                name: name, kind: kind, freshness: state,
                reason: freshness.staleReason?.description, lastStatus: stored.lastStatus, lastError: stored.lastError,
                consecutiveFailures: stored.consecutiveFailures, records: stored.recordCount, version: stored.version,
                lastSuccess: stored.lastSuccessAt, age: freshness.age, nextPoll: scheduled ? freshness.ttl : nil,
                runs: runsByName[name] ?? [], running: running[name], parents: stored.parents)
        }
        return StatusPage(rows: rows, omitted: all.count - listed.count, generatedAt: now())
    }
}

/// The one header field of the page that HTTPTypes does not name.
private enum StatusPageFields {
    static let referrerPolicy: HTTPField.Name = {
        guard let name = HTTPField.Name("Referrer-Policy") else { preconditionFailure("Referrer-Policy is a token") }
        return name
    }()
}
