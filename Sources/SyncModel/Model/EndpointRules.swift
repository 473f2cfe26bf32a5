import SyncDecoding
import SyncSupport

/// The rules a value of the configuration is checked by, written once for syncd.toml and for ``SyncEndpoint``: each
/// returns why the value cannot be used, in the TOML file's words, or nil. (The options' own rules live with them:
/// ``SyncEndpoint/Pagination``, ``SyncEndpoint/Incremental``, ``Credential``, ``SyncEndpoint/RateLimit``,
/// ``SyncEndpoint/DeletionLimit``; names in ``NameRules``, URLs in ``URLRules``.)
enum EndpointRules {
    /// A duration within `range`: `interval must be between 100ms and 30d`.
    static func duration(_ key: String, _ value: Duration, in range: ClosedRange<Duration>) -> String? {
        range.contains(value) ? nil : "\(key) must be \(ConfigurationBounds.describe(range))"
    }

    /// A size in bytes within `range`: `max_body must be between 1B and 2GiB`.
    static func size(_ key: String, _ bytes: Int, in range: ClosedRange<Int>) -> String? {
        range.contains(bytes) ? nil : "\(key) must be \(ConfigurationBounds.describe(bytes: range))"
    }

    /// A whole number within `range`: `retries must be a whole number from 0 to 100`.
    static func wholeNumber(_ key: String, _ value: Int, in range: ClosedRange<Int>) -> String? {
        range.contains(value) ? nil : "\(key) must be a whole number \(ConfigurationBounds.describe(range))"
    }

    /// `jitter`, a fraction of the interval.
    static func jitter(_ value: Double) -> String? {
        ConfigurationBounds.jitter.contains(value) ? nil : "jitter must be a number from 0 to 1"
    }

    /// One of `headers`: a token for a name (RFC 9110), no CR, LF or NUL in the value, which is never quoted.
    static func header(name: String, value: String) -> String? {
        guard HTTPHeaderSyntax.isToken(name) else {
            return "headers: \"\(ControlCharacters.escaped(name, .terminal))\" is not a valid header name"
        }
        guard !HTTPHeaderSyntax.hasForbiddenByte(value) else {
            return "headers: the value of \"\(name)\" must not contain CR, LF or NUL"
        }
        return nil
    }

    /// `primary_key`: each name a column, none twice. Returns the columns' positions and the problems; a name in
    /// `unchecked` (a column whose own problems were reported) is skipped without a problem.
    static func primaryKey(_ names: [String], columns: [ColumnSpec], unchecked: Set<String> = [])
        -> (positions: [Int], problems: [String])
    {
        var positions: [Int] = []
        var problems: [String] = []
        for name in names {
            guard let position = columns.firstIndex(where: { $0.name == name }) else {
                if !unchecked.contains(name) {
                    problems.append("primary_key names \"\(name)\", which is not in [endpoint.columns]")
                }
                continue
            }
            guard !positions.contains(position) else {
                problems.append("primary_key names \"\(name)\" twice")
                continue
            }
            positions.append(position)
        }
        return (positions, problems)
    }
}
