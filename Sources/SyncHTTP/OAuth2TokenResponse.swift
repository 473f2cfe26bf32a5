import SyncDecoding
import SyncSupport

/// What an OAuth2 token endpoint answered (RFC 6749 §5.1): an access token, how long it lives, and the new refresh
/// token of a server that rotates them. An answer that is not one — an error of §5.2, a body that is not JSON, a token
/// that could not be sent in a header — is an ``OAuth2TokenError`` in one sentence that never holds a token.
///
/// Every number that enters is bounded here: the body (64 KiB), each token (16 KiB of visible ASCII, so that no
/// token can break a header line), and `expires_in`, which may be a number or a numeric string (as some providers
/// send it) and is clamped to ``lifetimeBounds``; a missing one is ``defaultLifetime``.
package struct OAuth2TokenResponse: Sendable, Hashable {
    /// The token sent as `Authorization: Bearer …`.
    package var accessToken: String
    /// How long the token lives, in seconds, within ``lifetimeBounds``.
    package var lifetime: Double
    /// Whether the answer gave no `expires_in`, so that ``lifetime`` is ``defaultLifetime``.
    package var lifetimeAssumed: Bool
    /// The refresh token to use from now on, when the server sent one (it rotates them).
    package var refreshToken: String?

    /// The largest answer read.
    package static let maxBodyBytes = 64 << 10
    /// The longest access or refresh token taken: JWTs with many claims stay far under it.
    package static let maxTokenBytes = 16 << 10
    /// The lifetime of a token whose answer gives none (RFC 6749 leaves it to the server's documentation; an hour is
    /// the common one). A token that dies sooner is renewed on its first 401.
    package static let defaultLifetime: Double = 3600
    /// The lifetimes taken: at least 30 s, so that a server that says 0 or less is not asked again for every request
    /// (a token that died is renewed on its first 401); at most a day, so that a token is renewed daily whatever a
    /// server claims (10^30 seconds, say).
    package static let lifetimeBounds: ClosedRange<Double> = 30...86_400

    private static let paths = Field.allCases.map { JSONPath(components: [.key($0.rawValue)]) }

    private enum Field: String, CaseIterable {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case error = "error"
        case errorDescription = "error_description"
    }

    package init(accessToken: String, lifetime: Double, lifetimeAssumed: Bool = false, refreshToken: String? = nil) {
        self.accessToken = accessToken
        self.lifetime = lifetime
        self.lifetimeAssumed = lifetimeAssumed
        self.refreshToken = refreshToken
    }

    /// Reads a token endpoint's answer.
    ///
    /// - Parameters:
    ///   - status: The answer's status: a 2xx holds a token, any other an error (§5.2).
    ///   - body: The body as received, at most ``maxBodyBytes`` of it.
    /// - Throws: ``OAuth2TokenError``: the server's error, or why the answer holds no usable token.
    package init(status: Int, body: some Collection<UInt8>) throws(OAuth2TokenError) {
        guard body.count <= Self.maxBodyBytes else {
            throw OAuth2TokenError(.malformed, "the token endpoint's answer is larger than 64 KiB")
        }
        let bytes = Array(body)
        let values = Self.capture(bytes)
        guard (200..<300).contains(status) else {
            throw Self.refusal(status: status, values)
        }
        guard let values else {
            throw OAuth2TokenError(
                .malformed, "the token endpoint answered \(status) with a body that is not a JSON object")
        }
        if case .string(let code)? = values[Field.error] {
            throw OAuth2TokenError.refused(status: status, code: code, description: values[Field.errorDescription])
        }
        guard case .string(let token)? = values[Field.accessToken], !token.isEmpty else {
            throw OAuth2TokenError(.malformed, "the token endpoint's answer has no access_token string")
        }
        guard Self.isSendable(token) else {
            throw OAuth2TokenError(
                .malformed,
                "the token endpoint's access_token is longer than 16 KiB or holds characters a header cannot carry")
        }
        switch values[Field.tokenType] {
        case nil, .null?: break  // sent by nearly every server, and bearer when it is not
        case .string(let type)? where type.lowercased() == "bearer": break
        case let other?:
            throw OAuth2TokenError(
                .malformed,
                "syncd sends bearer tokens only, and the token endpoint gave token_type \(Self.shown(other))")
        }
        var refreshToken: String?
        switch values[Field.refreshToken] {
        case nil, .null?: break
        case .string(let rotated)? where !rotated.isEmpty && Self.isSendable(rotated): refreshToken = rotated
        case .some:
            throw OAuth2TokenError(
                .malformed,
                "the token endpoint's refresh_token is not a string of at most 16 KiB of visible ASCII characters")
        }
        let lifetime: Double?
        switch values[Field.expiresIn] {
        case nil, .null?: lifetime = nil
        case .number(let literal)?: lifetime = Double(literal)
        case .string(let text)? where Self.seconds(text) != nil: lifetime = Self.seconds(text)
        case let other?:
            throw OAuth2TokenError(
                .malformed, "the token endpoint's expires_in is \(Self.shown(other)), not a number of seconds")
        }
        self.init(
            accessToken: token, lifetime: Self.clamped(lifetime ?? Self.defaultLifetime),
            lifetimeAssumed: lifetime == nil, refreshToken: refreshToken)
    }

    /// `seconds` within ``lifetimeBounds`` (an infinite one at the top).
    static func clamped(_ seconds: Double) -> Double {
        guard !seconds.isNaN else { return lifetimeBounds.lowerBound }
        return min(max(seconds, lifetimeBounds.lowerBound), lifetimeBounds.upperBound)
    }

    /// The top-level values of a JSON object, by field; nil when the body is not one JSON object.
    private static func capture(_ bytes: [UInt8]) -> [Field: CapturedValue]? {
        guard let envelope = EnvelopeCapture.object(bytes, paths: paths) else { return nil }
        var values: [Field: CapturedValue] = [:]
        for (field, path) in zip(Field.allCases, paths) {
            if let value = envelope.value(at: path) { values[field] = value }
        }
        return values
    }

    /// The error of an answer that is not a 2xx: the server's `error` when it gave one, else its status.
    private static func refusal(status: Int, _ values: [Field: CapturedValue]?) -> OAuth2TokenError {
        if case .string(let code)? = values?[Field.error] {
            return .refused(status: status, code: code, description: values?[Field.errorDescription])
        }
        return OAuth2TokenError(
            status == 401 || status == 403 ? .refused : .unavailable,
            "the token endpoint answered \(status) \(HTTPStatusText.reason(status))")
    }

    /// A numeric string's seconds: `"3600"`, `"3599.5"`; nil for anything else.
    private static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingASCIISpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32,
            trimmed.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") })
        else { return nil }
        return Double(trimmed)
    }

    /// Whether `token` can be sent in a header as it is: visible ASCII, and not too long.
    private static func isSendable(_ token: String) -> Bool {
        token.utf8.count <= maxTokenBytes && token.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    /// A value as a message shows it: quoted, escaped and cut short.
    static func shown(_ value: CapturedValue) -> String {
        switch value {
        case .string(let text): "\"\(OAuth2TokenError.bounded(text))\""
        case .number(let literal): OAuth2TokenError.bounded(literal)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .other: "an array or object"
        }
    }
}

/// Why no token came from a token endpoint, in one sentence that never holds a token or a secret.
package struct OAuth2TokenError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// The server refused the request (§5.2), or answered 401/403: asking again as it is will not help.
        case refused
        /// The server's answer holds no usable token.
        case malformed
        /// The server did not answer usefully now (a 5xx, a 429, no answer): a later run may succeed.
        case unavailable
    }

    package var kind: Kind
    /// The server's `error` code (`invalid_grant`, `invalid_client`…), when it gave one.
    package var code: String?
    package var description: String

    package init(_ kind: Kind, _ description: String, code: String? = nil) {
        self.kind = kind
        self.description = description
        self.code = code
    }

    /// The server's error (§5.2): its code and description, escaped and bounded.
    static func refused(status: Int, code: String, description: CapturedValue?) -> OAuth2TokenError {
        var sentence = "the token endpoint refused the request (\(status)): \(bounded(code))"
        if case .string(let text)? = description, !text.isEmpty { sentence += " (\"\(bounded(text))\")" }
        let kind: Kind = status >= 500 || status == 429 ? .unavailable : .refused
        return OAuth2TokenError(kind, sentence, code: String(code.prefix(64)))
    }

    /// `text` with its control characters escaped, cut to 200 characters of what is shown.
    static func bounded(_ text: String) -> String {
        ControlCharacters.escaped(text, .log, limit: 200)
    }
}
