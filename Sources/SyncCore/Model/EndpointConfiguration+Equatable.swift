extension EndpointConfiguration: Equatable {
    /// Compares every property; headers in order. Lets a reload tell which endpoints changed.
    package static func == (lhs: EndpointConfiguration, rhs: EndpointConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.line == rhs.line && lhs.interval == rhs.interval
            && lhs.jitter == rhs.jitter && lhs.timeout == rhs.timeout && lhs.maxBody == rhs.maxBody
            && lhs.maxRecord == rhs.maxRecord
            && lhs.records == rhs.records && lhs.primaryKey == rhs.primaryKey && lhs.mode == rhs.mode
            && lhs.headers.elementsEqual(rhs.headers, by: ==) && lhs.method == rhs.method && lhs.body == rhs.body
            && lhs.auth == rhs.auth && lhs.strict == rhs.strict
            && lhs.allowEmpty == rhs.allowEmpty
            && lhs.maxDelete == rhs.maxDelete && lhs.columns == rhs.columns && lhs.retries == rhs.retries
            && lhs.retryMaxDelay == rhs.retryMaxDelay && lhs.pagination == rhs.pagination
            && lhs.incremental == rhs.incremental && lhs.rateLimit == rhs.rateLimit
            && lhs.rateLimitScope == rhs.rateLimitScope
    }
}
