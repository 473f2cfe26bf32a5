import HTTPTypes
import Testing

@testable import SyncCore
@testable import SyncServe

/// The webhook signature schemes against their providers' documented examples, and what they refuse.
@Suite("webhooks: signatures")
struct WebhookSignatureTests {
    static func headers(_ name: String, _ value: String) -> HTTPFields {
        var headers = HTTPFields()
        if let name = HTTPField.Name(name) { headers[name] = value }
        return headers
    }

    static func matches(
        _ scheme: SyncEndpoint.Webhook.Signature, _ headers: HTTPFields, body: String, key: String,
        now: Double = 1_700_000_000
    ) throws(WebhookSignature.Refusal) -> Bool {
        var check = try WebhookSignature.read(scheme, headers: headers, now: now, tolerance: .seconds(300))
            .check(key: Array(key.utf8))
        Array(body.utf8).withUnsafeBytes { check.update($0) }
        return check.matches()
    }

    @Test("GitHub's documented example: \"Hello, World!\" signed with \"It's a Secret to Everybody\"")
    func githubDocumented() throws {
        // docs.github.com › Webhooks › Validating webhook deliveries › Testing the webhook payload validation.
        let headers = Self.headers(
            "X-Hub-Signature-256", "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
        #expect(try Self.matches(.github, headers, body: "Hello, World!", key: "It's a Secret to Everybody"))
        #expect(try !Self.matches(.github, headers, body: "Hello, World?", key: "It's a Secret to Everybody"))
        #expect(try !Self.matches(.github, headers, body: "Hello, World!", key: "It's a secret to everybody"))
    }

    @Test("Stripe's scheme: the HMAC of \"t.body\" with the whole whsec_ secret; any v1 may match, v0 is ignored")
    func stripeScheme() throws {
        // Computed with Python's hmac module: hmac.new(b"whsec_test_secret", b"1700000000." + body, sha256).
        let body = #"{"id":"evt_1","type":"invoice.paid"}"#
        let v1 = "46dc069361a7691082640523fa33fe5d6c8c88d5f5e257cdf8cf11539d166595"
        let rolled = String(repeating: "0", count: 64)
        let header = Self.headers("Stripe-Signature", "t=1700000000,v1=\(rolled),v1=\(v1),v0=\(rolled)")
        #expect(try Self.matches(.stripe, header, body: body, key: "whsec_test_secret"))
        #expect(try !Self.matches(.stripe, header, body: body + " ", key: "whsec_test_secret"))
        let onlyV0 = Self.headers("Stripe-Signature", "t=1700000000,v0=\(v1)")
        #expect(throws: WebhookSignature.Refusal.self) {
            try Self.matches(.stripe, onlyV0, body: body, key: "whsec_test_secret")
        }
    }

    @Test("a Stripe hook signed further from now than the tolerance is refused as a replay, either way in time")
    func stripeReplay() throws {
        let header = Self.headers("Stripe-Signature", "t=1700000000,v1=\(String(repeating: "a", count: 64))")
        for now in [1_700_000_301.0, 1_699_999_699] {
            #expect(throws: WebhookSignature.Refusal.outsideTolerance(seconds: 301, tolerance: 300)) {
                try Self.matches(.stripe, header, body: "", key: "k", now: now)
            }
        }
        #expect(throws: Never.self) { try Self.matches(.stripe, header, body: "", key: "k", now: 1_700_000_300) }
        let sentence = WebhookSignature.Refusal.outsideTolerance(seconds: 301, tolerance: 300).sentence
        #expect(sentence == "The hook was signed 301 s from now, outside the tolerance of 300 s: a replay is refused.")
    }

    @Test("a named header's HMAC in hex, sha256=hex or base64 (Shopify's X-Shopify-Hmac-Sha256)")
    func namedHeader() throws {
        let scheme = SyncEndpoint.Webhook.Signature.hmacSHA256(header: "X-Shopify-Hmac-Sha256")
        let base64 = Self.headers("X-Shopify-Hmac-Sha256", "yDVNpmxQCNEQC9dKCR/hodz9eTb2Z3NwQa93joRgIFc=")
        #expect(try Self.matches(scheme, base64, body: #"{"order":1}"#, key: "shpss_secret"))
        #expect(try !Self.matches(scheme, base64, body: #"{"order":2}"#, key: "shpss_secret"))
        let hex = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
        let github = SyncEndpoint.Webhook.Signature.hmacSHA256(header: "X-Signature")
        for value in [hex, "sha256=" + hex, hex.uppercased(), " \(hex) "] {
            #expect(
                try Self.matches(
                    github, Self.headers("X-Signature", value), body: "Hello, World!", key: "It's a Secret to Everybody"
                ), "\(value)")
        }
    }

    @Test(
        "a missing or malformed header is refused before the body is read, in a sentence that quotes none of it",
        arguments: [
            ("X-Hub-Signature-256", "sha1=0123456789abcdef0123456789abcdef01234567"),
            ("X-Hub-Signature-256", "sha256=" + String(repeating: "g", count: 64)),
            ("X-Hub-Signature-256", "sha256=" + String(repeating: "a", count: 63)),
            (
                "X-Hub-Signature-256",
                "sha256=" + String(repeating: "a", count: 64) + ",sha256=" + String(repeating: "b", count: 64)
            ),
            ("X-Other", "sha256=" + String(repeating: "a", count: 64)),
        ])
    func githubRefusals(header: String, value: String) {
        do {
            _ = try Self.matches(.github, Self.headers(header, value), body: "", key: "k")
            Issue.record("\(value) was taken")
        } catch {
            #expect(!error.sentence.contains("aaaa") && !error.sentence.contains("gggg"))
            #expect(error.sentence.contains("X-Hub-Signature-256"))
        }
    }

    @Test(
        "Stripe headers without t, without v1, with two t, a t too long or a v1 too short are refused",
        arguments: [
            "v1=" + String(repeating: "a", count: 64), "t=1700000000",
            "t=1,t=2,v1=" + String(repeating: "a", count: 64),
            "t=1234567890123456789,v1=" + String(repeating: "a", count: 64), "t=1700000000,v1=abc", "t=-5,v1=ab",
            "t=1700000000;v1=" + String(repeating: "a", count: 64), "",
        ])
    func stripeRefusals(value: String) {
        #expect(WebhookSignature.stripe(value) == nil)
    }

    @Test("a header of 17 signatures, or longer than 4 KiB, is refused: a claim is bounded where it is read")
    func bounded() {
        let v1 = ",v1=" + String(repeating: "a", count: 64)
        #expect(WebhookSignature.stripe("t=1" + String(repeating: v1, count: 16))?.signatures.count == 16)
        #expect(WebhookSignature.stripe("t=1" + String(repeating: v1, count: 17)) == nil)
        #expect(WebhookSignature.stripe("t=1" + v1 + String(repeating: " ", count: 4096)) == nil)
    }
}
