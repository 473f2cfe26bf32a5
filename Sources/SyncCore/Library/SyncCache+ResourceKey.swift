internal import Crypto
import SyncSupport

extension SyncCache {
    /// The key of `url`'s row in `syncd_resources`: the URL itself when it shows no secret (``URLRedaction``);
    /// otherwise the redacted URL followed by `#sha256=` and the SHA-256 of the whole URL, so that two URLs that
    /// differ only in a secret (two tenants' keys, two page tokens) keep two rows and neither secret is stored.
    static func storedKey(_ url: String) -> String {
        let redacted = URLRedaction.redact(url)
        guard redacted != url else { return url }
        let digest = SHA256.hash(data: Array(url.utf8))
        return redacted + "#sha256="
            + digest.map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }
}
