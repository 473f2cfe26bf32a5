/// The endpoint keys that `[defaults]` may set: the built-in defaults, overridden by `[defaults]`, overridden by
/// each `[[endpoint]]`. A key set in `[[endpoint]]` replaces the default as a whole (`headers` too).
struct EndpointSettings {
    var interval = EndpointConfiguration.defaultInterval
    var jitter = EndpointConfiguration.defaultJitter
    var timeout = EndpointConfiguration.defaultTimeout
    var maxBody = EndpointConfiguration.defaultMaxBody
    var maxRecord = EndpointConfiguration.defaultMaxRecord
    var mode = SyncMode.snapshot
    var headers: [(name: String, value: String)] = []
    var auth: Credential?
    var strict = false
    var allowEmpty = false
    var maxDelete = SyncEndpoint.DeletionLimit.default
    var retries = EndpointConfiguration.defaultRetries
    var retryMaxDelay = EndpointConfiguration.defaultRetryMaxDelay
    var pagination: PaginationConfiguration?
    var incremental: IncrementalSetting?
    var rateLimit: SyncEndpoint.RateLimit?
    var rateLimitScope = SyncEndpoint.RateLimitScope.endpoint
}

extension ConfigurationParser {
    /// Reads one of the keys that `[defaults]` and `[[endpoint]]` share; false when `field` is not one of them.
    mutating func applySetting(_ field: Field, to settings: inout EndpointSettings) -> Bool {
        switch field.key {
        case "interval":
            if let value = duration(field, in: ConfigurationBounds.interval) { settings.interval = value }
        case "timeout":
            if let value = duration(field, in: ConfigurationBounds.timeout) { settings.timeout = value }
        case "jitter":
            // Not a number reads as out of range, which the rule refuses in the same words.
            let value = field.value.double ?? field.value.int.map(Double.init) ?? -1
            if let problem = EndpointRules.jitter(value) { report(problem, at: field) } else { settings.jitter = value }
        case "max_body":
            if let value = size(field, in: ConfigurationBounds.maxBody) { settings.maxBody = value }
        case "max_record":
            if let value = size(field, in: ConfigurationBounds.maxRecord) { settings.maxRecord = value }
        case "mode":
            if let value = field.value.string.flatMap(SyncMode.init(rawValue:)) {
                settings.mode = value
            } else {
                report("mode must be \"snapshot\" or \"incremental\"", at: field)
            }
        case "headers":
            if let value = headers(field) { settings.headers = value }
        case "auth":
            if let value = auth(field) { settings.auth = value }
        case "strict":
            if let value = bool(field) { settings.strict = value }
        case "allow_empty":
            if let value = bool(field) { settings.allowEmpty = value }
        case "max_delete":
            if let value = deletionLimit(field) { settings.maxDelete = value }
        case "retries":
            if let value = wholeNumber(field, in: ConfigurationBounds.retries) { settings.retries = value }
        case "retry_max_delay":
            if let value = duration(field, in: ConfigurationBounds.retryMaxDelay) { settings.retryMaxDelay = value }
        case "pagination":
            if let value = pagination(field) { settings.pagination = value }
        case "incremental":
            if let value = incremental(field) { settings.incremental = value }
        case "rate_limit":
            if let value = field.value.string.flatMap(SyncEndpoint.RateLimit.init(parsing:)) {
                if let problem = value.problem { report(problem, at: field) } else { settings.rateLimit = value }
            } else {
                report(
                    #"rate_limit must be requests per second, minute or hour, such as "10/s", "600/m" or "3600/h""#,
                    at: field)
            }
        case "rate_limit_scope":
            if let value = field.value.string.flatMap(SyncEndpoint.RateLimitScope.init(rawValue:)) {
                settings.rateLimitScope = value
            } else {
                report(#"rate_limit_scope must be "endpoint" or "host""#, at: field)
            }
        default:
            return false
        }
        return true
    }
}
