/// Metadata keys of syncd's log lines, in one place (dotted, as swift-log's guide does).
package enum LogKey {
    package static let endpointName = "endpoint.name"
    package static let runID = "sync.run_id"
    package static let httpStatus = "http.status"
    package static let error = "error"
    package static let outcome = "sync.outcome"
    package static let page = "sync.page"
}
