/// The one way a URL is shown anywhere — stored in the database, logged, printed, served: its secrets replaced by
/// `REDACTED`.
///
/// Redacted are the user information (`https://user:password@host/` becomes `https://REDACTED@host/`), the value of
/// the query credential's parameter (`auth = { type = "query", name = … }`), and the value of every query or
/// fragment parameter whose name, percent-decoded, contains `key`, `token`, `secret`, `password` or `signature` in
/// any case (`api_key`, `access_token`, `X-Amz-Signature`). Everything else stays byte for byte as written.
///
/// ```swift
/// URLRedaction.redact("https://u:p@example.com/x?api_key=abc&page=2")
/// // "https://REDACTED@example.com/x?api_key=REDACTED&page=2"
/// ```
package enum URLRedaction {
    /// What stands where a secret was.
    package static let marker = "REDACTED"

    /// Words that make a parameter's name secret.
    private static let secretWords = ["key", "token", "secret", "password", "signature"]

    /// `url` with its secrets replaced by ``marker``.
    ///
    /// - Parameter queryCredential: The name of the query credential's parameter, if the endpoint has one.
    package static func redact(_ url: String, queryCredential: String? = nil) -> String {
        var rest = Substring(url)
        var result = ""
        if let scheme = rest.firstRange(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                result += marker
                rest = rest[at...]
            }
        }
        // The path, then each parameter of the query and the fragment, split at ? # & ; and copied as slices of the
        // URL (each run stores its endpoint's URL: appending it character by character was 3% of a 304 poll's
        // database work).
        var parameterStart = rest.startIndex
        var inParameters = false
        var index = rest.startIndex
        while index < rest.endIndex {
            let character = rest[index]
            let next = rest.index(after: index)
            if character == "?" || character == "#" || (inParameters && (character == "&" || character == ";")) {
                let parameter = rest[parameterStart..<index]
                result += inParameters ? redactParameter(parameter, queryCredential) : parameter
                result.append(character)
                parameterStart = next
                inParameters = true
            }
            index = next
        }
        let parameter = rest[parameterStart...]
        result += inParameters ? redactParameter(parameter, queryCredential) : parameter
        return result
    }

    /// `name=value` with the value redacted when the name is secret.
    private static func redactParameter(_ item: Substring, _ queryCredential: String?) -> Substring {
        guard let equals = item.firstIndex(of: "=") else { return item }
        let rawName = item[..<equals]
        let name = PercentDecoding.decode(rawName)
        guard isSecret(name, queryCredential: queryCredential) else { return item }
        return item[...equals] + marker
    }

    /// Whether a parameter of this name holds a secret.
    package static func isSecret(_ name: String, queryCredential: String? = nil) -> Bool {
        if name == queryCredential { return true }
        let lowered = name.lowercased()
        return secretWords.contains { lowered.contains($0) }
    }
}
