import HTTPTypes
import SyncCore
import SyncServe

/// The webhook signature headers (``WebhookSignature``): GitHub's `X-Hub-Signature-256`, Stripe's `Stripe-Signature`
/// and a named header's HMAC-SHA256, and the check of a body against them.
///
/// Input: a header value, a NUL, a body, a NUL, a key. What is read holds 32-byte signatures (at most 16), Stripe's
/// with its `t` and the `t.` it signs before the body; GitHub's is `sha256=` and 64 hex digits exactly. The header
/// value's claim matches the body only if it holds the body's HMAC (then changing a byte of the body breaks it), and a
/// header made of the body's own HMAC always matches, whatever the bytes: the parsers read what the signers write.
enum WebhookSignatureTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let parts = input.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let header = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let body = parts.count > 1 ? Array(parts[1]) : []
        let key = parts.count > 2 ? Array(parts[2]) : []
        let now = 1_700_000_000.0
        let schemes: [(SyncEndpoint.Webhook.Signature, String)] = [
            (.github, "X-Hub-Signature-256"), (.stripe, "Stripe-Signature"),
            (.hmacSHA256(header: "X-Signature"), "X-Signature"),
        ]
        for (scheme, name) in schemes {
            let headers = Self.headers(name, header)
            let read: WebhookSignature
            do throws(WebhookSignature.Refusal) {
                read = try WebhookSignature.read(scheme, headers: headers, now: now, tolerance: .seconds(1 << 40))
            } catch {
                try require(!error.sentence.isEmpty, "an empty refusal")
                continue
            }
            try require(!read.signatures.isEmpty && read.signatures.count <= 16, "\(read.signatures.count) signatures")
            try require(read.signatures.allSatisfy { $0.count == 32 }, "a signature not of 32 bytes")
            if case .github = scheme {
                // As the request carries it: HTTP field values lose their leading and trailing white space and
                // control bytes (HTTPField's rules), as they would on the wire.
                let carried = HTTPField.Name(name).flatMap { headers[$0] } ?? ""
                try require(carried.utf8.count == 71, "GitHub's header of \(carried.utf8.count)")
            }
            if case .stripe = scheme {
                try require(read.prefix == Array("\(read.timestamp ?? -1).".utf8), "Stripe's prefix")
            } else {
                try require(read.prefix.isEmpty && read.timestamp == nil, "a prefix outside Stripe")
            }
            if matches(read, body, key), !body.isEmpty {
                var changed = body
                changed[0] ^= 1
                try require(!matches(read, changed, key), "a signature matches two bodies")
            }
        }
        // The body's own HMAC, as each signer writes it, is read back and matches.
        let hex = WebhookSignature.hmac(body, key: key).map { byte in
            String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
        let signed: [(SyncEndpoint.Webhook.Signature, HTTPFields)] = [
            (.github, Self.headers("X-Hub-Signature-256", "sha256=" + hex)),
            (.hmacSHA256(header: "X-Signature"), Self.headers("X-Signature", hex)),
        ]
        for (scheme, headers) in signed {
            let read: WebhookSignature
            do throws(WebhookSignature.Refusal) {
                read = try WebhookSignature.read(scheme, headers: headers, now: now, tolerance: .seconds(1))
            } catch {
                throw FuzzFailure("the body's own HMAC is refused (\(scheme.name)): \(error.sentence)")
            }
            try require(matches(read, body, key), "the body's own HMAC does not match (\(scheme.name))")
        }
    }

    private static func headers(_ name: String, _ value: String) -> HTTPFields {
        var headers = HTTPFields()
        if let name = HTTPField.Name(name) { headers[name] = value }
        return headers
    }

    private static func matches(_ read: WebhookSignature, _ body: [UInt8], _ key: [UInt8]) -> Bool {
        var check = read.check(key: key)
        body.withUnsafeBytes { check.update($0) }
        return check.matches()
    }
}
