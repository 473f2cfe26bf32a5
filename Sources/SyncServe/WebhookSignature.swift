internal import Crypto
internal import FoundationEssentials
package import HTTPTypes
package import SyncCore
import SyncSupport

/// What a webhook's headers claim, and the check of that claim against the body as it streams in: HMAC-SHA256 over
/// the exact bytes received, compared in constant time with each signature the header carries.
///
/// ```swift
/// var check = try WebhookSignature.read(.github, headers: request.headers, now: now, tolerance: .seconds(300))
///     .check(key: Array(secret.utf8))
/// for try await buffer in request.body { buffer.withUnsafeReadableBytes { check.update($0) } }
/// guard check.matches() else { throw … }
/// ```
///
/// The schemes, as their providers document them:
/// - GitHub: `X-Hub-Signature-256: sha256=<hex>`, the HMAC of the body.
/// - Stripe: `Stripe-Signature: t=<unix time>,v1=<hex>[,v1=<hex>…]`, the HMAC of `<t>.<body>`; the whole secret
///   (`whsec_…`) is the key, any `v1` may match (a secret being rolled), `v0` and unknown schemes are ignored.
/// - HMAC-SHA256 in a named header: hex, `sha256=` and hex, or base64 (Shopify's `X-Shopify-Hmac-Sha256`).
package struct WebhookSignature: Sendable, Equatable {
    /// The HMACs the header claims, 32 bytes each.
    package var signatures: [[UInt8]]
    /// What is signed before the body: Stripe's `<t>.`; empty for the others.
    package var prefix: [UInt8]
    /// Stripe's `t`, seconds since 1970.
    package var timestamp: Int64?

    /// Why a hook is refused before or after its body is read; each says so in one sentence, never quoting a byte of
    /// the signature or the body.
    package enum Refusal: Error, Sendable, Equatable {
        case missing(header: String)
        case malformed(header: String, expected: String)
        /// Stripe's `t` is this many seconds from now, past the tolerance: a replay, or a clock far off.
        case outsideTolerance(seconds: Int64, tolerance: Int64)
        case mismatch

        package var sentence: String {
            switch self {
            case .missing(let header): "The hook has no \(header) header."
            case .malformed(let header, let expected): "\(header) is not \(expected)."
            case .outsideTolerance(let seconds, let tolerance):
                "The hook was signed \(seconds) s from now, outside the tolerance of \(tolerance) s: "
                    + "a replay is refused."
            case .mismatch: "The signature does not match the body."
            }
        }
    }

    /// The most bytes of a signature header read: Stripe's, with a few `v1`, is under 300.
    static let maximumHeader = 4096
    /// The most signatures one header may carry.
    static let maximumSignatures = 16

    /// The claim a hook's headers make in `scheme`; for Stripe, refused when its `t` is further than `tolerance`
    /// from `now` (seconds since 1970).
    package static func read(
        _ scheme: SyncEndpoint.Webhook.Signature, headers: HTTPFields, now: Double, tolerance: Duration
    ) throws(Refusal) -> WebhookSignature {
        let name: String
        let expected: String
        switch scheme {
        case .github: (name, expected) = ("X-Hub-Signature-256", "sha256= and 64 hexadecimal digits")
        case .stripe: (name, expected) = ("Stripe-Signature", "t=<unix time> and at least one v1=<64 hex digits>")
        case .hmacSHA256(let header):
            (name, expected) = (header, "an HMAC-SHA256 in hexadecimal (or sha256=hex) or base64")
        case .none: return WebhookSignature(signatures: [], prefix: [], timestamp: nil)
        }
        guard let field = HTTPField.Name(name), let value = headers[field] else { throw .missing(header: name) }
        let parsed: WebhookSignature? =
            switch scheme {
            case .github: github(value).map { WebhookSignature(signatures: [$0], prefix: [], timestamp: nil) }
            case .stripe: stripe(value)
            default: hmac(value).map { WebhookSignature(signatures: [$0], prefix: [], timestamp: nil) }
            }
        guard let parsed else { throw .malformed(header: name, expected: expected) }
        if let timestamp = parsed.timestamp {
            let allowed = Int64(tolerance.components.seconds)
            // |now − t| in whole seconds, without trapping: t is at most 18 digits, now a clock's reading.
            let distance = (now.rounded() - Double(timestamp)).magnitude
            guard distance <= Double(allowed) else {
                throw .outsideTolerance(seconds: distance < 9e18 ? Int64(distance) : Int64.max, tolerance: allowed)
            }
        }
        return parsed
    }

    /// The HMAC-SHA256 of `body` with `key`: what a signer sends (the tests' and the fuzz target's).
    package static func hmac(_ body: [UInt8], key: [UInt8]) -> [UInt8] {
        var signer = Check(key: key, signatures: [], prefix: [])
        body.withUnsafeBytes { signer.update($0) }
        return signer.digest
    }

    /// The check of this claim, to be fed the body.
    package func check(key: [UInt8]) -> Check {
        Check(key: key, signatures: signatures, prefix: prefix)
    }

    /// An HMAC-SHA256 fed the body as it arrives.
    package struct Check {
        private var mac: HMAC<SHA256>
        private let signatures: [[UInt8]]

        init(key: [UInt8], signatures: [[UInt8]], prefix: [UInt8]) {
            mac = HMAC<SHA256>(key: SymmetricKey(data: key))
            self.signatures = signatures
            prefix.withUnsafeBytes { mac.update(data: $0) }
        }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            mac.update(data: bytes)
        }

        /// The HMAC of what was fed: a signer's signature.
        package var digest: [UInt8] { Array(mac.finalize()) }

        /// Whether one of the claimed signatures is the body's, every one compared in constant time.
        package func matches() -> Bool {
            let code = digest
            var matched = false
            for signature in signatures { matched = ConstantTime.equals(code, signature) || matched }
            return matched
        }
    }

    // MARK: - The header parsers (fuzzed: Fuzz/Sources/FuzzTargets/WebhookSignatureTarget.swift)

    /// GitHub's `sha256=<64 hex>`.
    package static func github(_ value: String) -> [UInt8]? {
        let text = value.utf8
        guard text.count == 71, text.starts(with: "sha256=".utf8) else { return nil }
        return hexDigest(text.dropFirst(7))
    }

    /// Stripe's `t=<digits>,v1=<64 hex>,…`: nil without a `t` or a `v1`, or with a malformed one of either.
    package static func stripe(_ value: String) -> WebhookSignature? {
        guard value.utf8.count <= maximumHeader else { return nil }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for item in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let part = trimmed(item)
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = part[..<equals]
            let rest = part[part.index(after: equals)...]
            if key.elementsEqual("t".utf8) {
                guard timestamp == nil, (1...18).contains(rest.count),
                    rest.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let seconds = Int64(String(decoding: rest, as: UTF8.self))
                else { return nil }
                timestamp = seconds
            } else if key.elementsEqual("v1".utf8) {
                guard signatures.count < maximumSignatures, let digest = hexDigest(rest) else { return nil }
                signatures.append(digest)
            }
        }
        guard let timestamp, !signatures.isEmpty else { return nil }
        return WebhookSignature(signatures: signatures, prefix: Array("\(timestamp).".utf8), timestamp: timestamp)
    }

    /// An HMAC-SHA256 as 64 hex digits (after `sha256=`, if it is there) or as base64.
    package static func hmac(_ value: String) -> [UInt8]? {
        var text = trimmed(value.utf8[...])
        guard text.count <= 128 else { return nil }
        if text.starts(with: "sha256=".utf8) { text = text.dropFirst(7) }
        if let digest = hexDigest(text) { return digest }
        guard let data = Data(base64Encoded: String(decoding: text, as: UTF8.self)), data.count == 32 else {
            return nil
        }
        return Array(data)
    }

    /// 64 hexadecimal digits, in either case, as 32 bytes.
    static func hexDigest<Digits: Collection<UInt8>>(_ digits: Digits) -> [UInt8]? {
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var high: UInt8?
        for digit in digits {
            guard let value = ASCIIDigits.hexValue(digit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            bytes = bytes.dropFirst()
        }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes = bytes.dropLast()
        }
        return bytes
    }
}
