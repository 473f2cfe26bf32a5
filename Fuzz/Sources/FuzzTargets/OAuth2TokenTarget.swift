import Foundation
import SyncCore
import SyncHTTP
import SyncSupport

/// The OAuth2 token endpoint's answer (``OAuth2TokenResponse``).
///
/// Input: one byte choosing the status (200, 201, 400, 401, 429, 503), then the body. An answer read as a token has
/// a token of 1 to 16 KiB of visible ASCII, a lifetime within the bounds, and no refresh token or one of visible
/// ASCII; where Foundation's JSON reader reads the body too, the token is its `access_token`. A refusal is one line,
/// bounded, its control characters escaped as a log line's.
enum OAuth2TokenTarget {
    static let statuses = [200, 201, 400, 401, 429, 503]

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        guard let first = input.first else { return }
        let status = statuses[Int(first) % statuses.count]
        let body = input.dropFirst()
        let answer: OAuth2TokenResponse
        do {
            answer = try OAuth2TokenResponse(status: status, body: body)
        } catch {
            // Escaped as a log line is: a tab may stay, nothing else of C0, DEL or C1.
            try require(
                !error.description.unicodeScalars.contains { ControlCharacters.needsEscape($0, .log) },
                "\(error.description.debugDescription)")
            try require(error.description.count <= 600, "a refusal of \(error.description.count) characters")
            return
        }
        try require((200..<300).contains(status), "a token from a \(status)")
        for token in [answer.accessToken, answer.refreshToken].compactMap({ $0 }) {
            try require(
                (1...OAuth2TokenResponse.maxTokenBytes).contains(token.utf8.count)
                    && token.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E },
                "the token \(token.prefix(100).debugDescription) cannot be sent in a header")
        }
        try require(
            OAuth2TokenResponse.lifetimeBounds.contains(answer.lifetime), "the lifetime \(answer.lifetime)")
        // Foundation's reader may refuse what RFC 8259 allows (or the reverse) elsewhere in the body: compared only
        // where both read it.
        let data = Data(body)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let expected = object["access_token"] as? String
        else { return }
        try require(
            expected == answer.accessToken,
            "access_token \(answer.accessToken.prefix(100).debugDescription), Foundation reads "
                + expected.prefix(100).debugDescription)
    }
}
