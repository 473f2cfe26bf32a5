/// The endpoint keys that `[defaults]` and `[[endpoint]]` share, read into ``SyncEndpoint``: the built-in defaults,
/// overridden by `[defaults]`, overridden by each `[[endpoint]]`. A key set in `[[endpoint]]` replaces the default
/// as a whole (`headers` too).
extension ConfigurationParser {
    /// Reads one of the keys that `[defaults]` and `[[endpoint]]` share into `endpoint`, checking its type; false
    /// when `field` is not one of them. The bounds are checked after, for the whole table (``reportBounds(of:in:)``).
    mutating func applySetting(_ field: Field, to endpoint: inout SyncEndpoint) -> Bool {
        switch field.key {
        case "interval":
            endpoint.set(\.interval, duration(field))
        case "timeout":
            endpoint.set(\.timeout, duration(field))
        case "jitter":
            // Not a number reads as out of range, which the rule refuses in the same words.
            endpoint.jitter = field.value.double ?? field.value.int.map(Double.init) ?? -1
        case "freshness":
            if let value = field.value.string.flatMap(SyncEndpoint.Freshness.init(rawValue:)) {
                endpoint.freshness = value
            } else {
                report(#"freshness must be "interval" or "upstream""#, at: field)
            }
        case "min_interval":
            endpoint.set(\.minInterval, duration(field))
        case "max_interval":
            endpoint.set(\.maxInterval, duration(field))
        case "max_body":
            endpoint.set(\.maxBody, size(field))
        case "max_record":
            endpoint.set(\.maxRecord, size(field))
        case "mode":
            if let value = field.value.string.flatMap(SyncMode.init(rawValue:)) {
                endpoint.upsertOnly = value == .incremental
            } else {
                report("mode must be \"snapshot\" or \"incremental\"", at: field)
            }
        case "headers":
            endpoint.set(\.headerFields, headers(field))
        case "auth":
            if let value = auth(field) { endpoint.credential = value }
        case "strict":
            endpoint.set(\.strict, bool(field))
        case "allow_empty":
            endpoint.set(\.allowEmpty, bool(field))
        case "max_delete":
            endpoint.set(\.maxDelete, deletionLimit(field))
        case "retries":
            // Not an integer reads as out of range, which the rule refuses in the same words.
            endpoint.retries = field.value.int ?? Int.min
        case "retry_max_delay":
            endpoint.set(\.retryMaxDelay, duration(field))
        case "on_status":
            endpoint.set(\.onStatus, onStatus(field))
        case "pagination":
            if let value = pagination(field) { endpoint.pagination = value }
        case "incremental":
            if let value = incremental(field) { endpoint.incremental = value }
        case "rate_limit":
            if let value = field.value.string.flatMap(SyncEndpoint.RateLimit.init(parsing:)) {
                if let problem = value.problem { report(problem, at: field) } else { endpoint.rateLimit = value }
            } else {
                report(
                    #"rate_limit must be requests per second, minute or hour, such as "10/s", "600/m" or "3600/h""#,
                    at: field)
            }
        case "webhook":
            if let value = webhook(field) { endpoint.webhook = value }
        case "rate_limit_scope":
            if let value = field.value.string.flatMap(SyncEndpoint.RateLimitScope.init(rawValue:)) {
                endpoint.rateLimitScope = value
            } else {
                report(#"rate_limit_scope must be "endpoint" or "host""#, at: field)
            }
        default:
            return applyConnectionSetting(field, to: &endpoint)
        }
        return true
    }

    /// Reports each of `endpoint`'s options out of its bounds (``SyncEndpoint/boundProblems``) at its key in
    /// `fields`, the table just read, and the TLS files it names that cannot be used (``checkTLSFiles(of:in:)``); a
    /// value the table did not set was checked where it was set.
    mutating func reportBounds(of endpoint: SyncEndpoint, in fields: [Field]) {
        checkTLSFiles(of: endpoint, in: fields)
        for problem in endpoint.boundProblems {
            guard let field = fields.last(where: { $0.key == problem.key }) else { continue }
            report(problem.sentence, at: field)
        }
    }

    /// Where `key` was set for an endpoint whose table is `table`, at `scope`: in the table, else in `[defaults]`.
    func origin(of key: String, in table: TOMLTable, scope: Scope) -> Field? {
        if let value = table[key] { return Field(key: key, value: value, scope: scope) }
        guard let value = document.root["defaults"]?.table?[key] else { return nil }
        return Field(key: key, value: value, scope: Scope(path: [.key("defaults")], context: "[defaults]"))
    }
}

extension SyncEndpoint {
    /// Sets `option` to `value` unless it is nil: a value the reader refused (and reported) leaves the option as it
    /// was. (Not for an optional option, whose nil would be set.)
    fileprivate mutating func set<Value>(_ option: WritableKeyPath<SyncEndpoint, Value>, _ value: Value?) {
        if let value { self[keyPath: option] = value }
    }
}
