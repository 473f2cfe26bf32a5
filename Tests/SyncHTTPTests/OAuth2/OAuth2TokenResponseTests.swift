import SyncSupport
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// Reading a token endpoint's answer (RFC 6749 §5): the token, its lifetime bounded, a rotated refresh token, and
/// every refusal in one sentence that never holds a token.
@Suite("OAuth2: a token endpoint's answer")
struct OAuth2TokenResponseTests {
    static func parse(_ body: String, status: Int = 200) throws(OAuth2TokenError) -> OAuth2TokenResponse {
        try OAuth2TokenResponse(status: status, body: Array(body.utf8))
    }

    @Test("a token with its lifetime and a rotated refresh token")
    func token() throws {
        let answer = try Self.parse(
            #"{"access_token":"eyJ.a-b_c~d+e/f=","token_type":"Bearer","expires_in":3599,"refresh_token":"r2","scope":"x"}"#
        )
        #expect(answer == OAuth2TokenResponse(accessToken: "eyJ.a-b_c~d+e/f=", lifetime: 3599, refreshToken: "r2"))
    }

    @Test(
        "expires_in as a number or a numeric string, clamped to 30 s … 1 day; missing, an hour",
        arguments: [
            (#""expires_in":"3600""#, 3600.0, false), (#""expires_in":0"#, 30, false), (#""expires_in":-5"#, 30, false),
            (#""expires_in":1e30"#, 86_400, false), (#""expires_in":1e400"#, 86_400, false),
            (#""expires_in":" 120 ""#, 120, false), (#""expires_in":null"#, 3600, true), (#""x":1"#, 3600, true),
            (#""expires_in":59.5"#, 59.5, false),
        ])
    func lifetime(field: String, seconds: Double, assumed: Bool) throws {
        let answer = try Self.parse(#"{"access_token":"t",\#(field)}"#)
        #expect(answer.lifetime == seconds && answer.lifetimeAssumed == assumed)
    }

    @Test(
        "an answer without a usable token is one sentence, never the token",
        arguments: [
            (#"{"token_type":"bearer"}"#, "the token endpoint's answer has no access_token string"),
            (#"{"access_token":""}"#, "the token endpoint's answer has no access_token string"),
            (#"{"access_token":7}"#, "the token endpoint's answer has no access_token string"),
            (
                #"{"access_token":"se cret"}"#,
                "the token endpoint's access_token is longer than 16 KiB or holds characters a header cannot carry"
            ),
            (
                #"{"access_token":"secret\r\nX: y"}"#,
                "the token endpoint's access_token is longer than 16 KiB or holds characters a header cannot carry"
            ),
            (
                #"{"access_token":"secret","token_type":"DPoP"}"#,
                #"syncd sends bearer tokens only, and the token endpoint gave token_type "DPoP""#
            ),
            (
                #"{"access_token":"secret","expires_in":"soon"}"#,
                #"the token endpoint's expires_in is "soon", not a number of seconds"#
            ),
            (
                #"{"access_token":"secret","expires_in":[1]}"#,
                "the token endpoint's expires_in is an array or object, not a number of seconds"
            ),
            (
                #"{"access_token":"secret","refresh_token":"a b"}"#,
                "the token endpoint's refresh_token is not a string of at most 16 KiB of visible ASCII characters"
            ),
            (#"["secret"]"#, "the token endpoint answered 200 with a body that is not a JSON object"),
            (#"{"access_token":"secret""#, "the token endpoint answered 200 with a body that is not a JSON object"),
            ("access_token=secret", "the token endpoint answered 200 with a body that is not a JSON object"),
        ])
    func malformed(body: String, sentence: String) {
        let error = #expect(throws: OAuth2TokenError.self) { try Self.parse(body) }
        #expect(error?.description == sentence)
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("secret") == false)
    }

    @Test("a gigantic token or answer is refused")
    func gigantic() {
        let token = String(repeating: "a", count: OAuth2TokenResponse.maxTokenBytes + 1)
        let long = #expect(throws: OAuth2TokenError.self) { try Self.parse(#"{"access_token":"\#(token)"}"#) }
        #expect(long?.kind == .malformed)
        let body = #"{"access_token":"t","pad":""# + String(repeating: " ", count: 70_000) + #""}"#
        let large = #expect(throws: OAuth2TokenError.self) { try Self.parse(body) }
        #expect(large?.description == "the token endpoint's answer is larger than 64 KiB")
    }

    @Test("the server's error: its code and description, escaped and bounded, and whether asking again can help")
    func refused() {
        let grant = #expect(throws: OAuth2TokenError.self) {
            try Self.parse(#"{"error":"invalid_grant","error_description":"Token\u001b[31m expired"}"#, status: 400)
        }
        #expect(
            grant?.description
                == #"the token endpoint refused the request (400): invalid_grant ("Token\x1b[31m expired")"#)
        #expect(grant?.code == "invalid_grant" && grant?.kind == .refused)
        let long = String(repeating: "x", count: 500)
        let bounded = #expect(throws: OAuth2TokenError.self) {
            try Self.parse(#"{"error":"invalid_client","error_description":"\#(long)"}"#, status: 401)
        }
        #expect(
            bounded?.description
                == "the token endpoint refused the request (401): invalid_client (\"\(String(long.prefix(200)))…\")")
        let busy = #expect(throws: OAuth2TokenError.self) {
            try Self.parse(#"{"error":"temporarily_unavailable"}"#, status: 503)
        }
        #expect(busy?.kind == .unavailable)
        let plain = #expect(throws: OAuth2TokenError.self) { try Self.parse("<html>", status: 502) }
        #expect(plain?.description == "the token endpoint answered 502 Bad Gateway" && plain?.kind == .unavailable)
        let denied = #expect(throws: OAuth2TokenError.self) { try Self.parse("", status: 401) }
        #expect(denied?.kind == .refused)
        let inBody = #expect(throws: OAuth2TokenError.self) { try Self.parse(#"{"error":"invalid_scope"}"#) }
        #expect(inBody?.code == "invalid_scope")
    }

    @Test("a refusal made of control characters is bounded by what it shows, not by what it held (a fuzzer's find)")
    func controlCharactersBounded() {
        // 300 DELs escape to 1,200 characters; cut before escaping, the sentence was 609 characters long.
        let dels = String(repeating: #"\u007f"#, count: 300)
        let refusal = #expect(throws: OAuth2TokenError.self) {
            try Self.parse(#"{"error":"i\#(dels)","error_description":"\#(dels)"}"#, status: 400)
        }
        let sentence = refusal?.description ?? ""
        #expect(sentence.count <= 600, "\(sentence.count) characters")
        #expect(sentence.contains(#"(400): i\x7f\x7f"#) && sentence.hasSuffix("…\")"), "\(sentence)")
        #expect(!sentence.unicodeScalars.contains { ControlCharacters.needsEscape($0, .log) })
        #expect(ControlCharacters.escaped("ab\u{7F}c", .log, limit: 6) == #"ab\x7f"# + "…")
        #expect(ControlCharacters.escaped("ab\u{7F}c", .log, limit: 7) == #"ab\x7fc"#)
        #expect(ControlCharacters.escaped("abc", .log, limit: 3) == "abc")
    }
}
