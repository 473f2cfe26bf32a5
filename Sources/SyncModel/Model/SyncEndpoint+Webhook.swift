import SyncDecoding
import SyncSupport

// An upstream's webhook that syncs the endpoint at once (`webhook`): the model's half; the read API checks the
// signatures (SyncServe's WebhookSignature) and the schedule coalesces the runs.

extension SyncEndpoint {
    /// An upstream's webhook that syncs the endpoint at once (`webhook = { secret_env = "…", signature = "github" }`):
    /// `POST /v1/hooks/{name}` with a body the signature covers makes the endpoint due now, a burst of hooks being
    /// one run, and a run already going followed by exactly one more.
    ///
    /// ```swift
    /// users.webhook = .init(secret: .environment("GH_HOOK_SECRET"), signature: .github)
    /// ```
    public struct Webhook: Sendable, Hashable {
        /// How the upstream signs a hook's body, which syncd checks in constant time over the exact bytes received.
        public enum Signature: Sendable, Hashable {
            /// GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` (`"github"`).
            case github
            /// Stripe's `Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">` (`"stripe"`), refused
            /// when `t` is further than ``Webhook/tolerance`` from now (a replay); any of several `v1` may match.
            case stripe
            /// HMAC-SHA256 of the body in the header named (`"hmac-sha256"` with `header`), as hex, `sha256=` and hex,
            /// or base64 (Shopify's `X-Shopify-Hmac-Sha256`).
            case hmacSHA256(header: String)
            /// No signature (`"none"`): any request syncs the endpoint. Only when the read API listens on loopback
            /// or a Unix socket, where no other machine can reach it.
            case none

            /// Its name in syncd.toml.
            public var name: String {
                switch self {
                case .github: "github"
                case .stripe: "stripe"
                case .hmacSHA256: "hmac-sha256"
                case .none: "none"
                }
            }
        }

        /// The shared secret the upstream signs with (`secret_env`, `secret_file` or `credential`); none with
        /// ``Signature/none``. Read when a hook comes, as the other secrets are.
        public var secret: Credential.Secret?
        /// How the hooks are signed.
        public var signature: Signature
        /// With ``Signature/stripe``, how far a hook's `t=` may be from now: 1 s…1 day (`tolerance`). The default is
        /// 5 minutes, Stripe's.
        public var tolerance: Duration
        /// For a child endpoint (``SyncEndpoint/parent``), the JSON path in a hook's body of the parent row's key
        /// (`parent_key = "repository.full_name"`): the run walks that parent only. A hook without a value there
        /// walks them all. The default is none: every hook walks them all.
        public var parentKey: String?

        /// A webhook signed with `secret` in the `signature` scheme.
        public init(
            secret: Credential.Secret?, signature: Signature, tolerance: Duration = .seconds(300),
            parentKey: String? = nil
        ) {
            self.secret = secret
            self.signature = signature
            self.tolerance = tolerance
            self.parentKey = parentKey
        }

        /// The rules of a webhook, in syncd.toml's words: the same for the file and for Swift.
        package var problems: [OptionProblem] {
            var problems: [OptionProblem] = []
            switch signature {
            case .none:
                if secret != nil {
                    problems.append(OptionProblem(key: nil, #"webhook: signature "none" takes no secret"#))
                }
            case .hmacSHA256(let header):
                if header.isEmpty || !HTTPHeaderSyntax.isToken(header) {
                    problems.append(OptionProblem(key: "header", "webhook: header must be a header name"))
                }
                fallthrough
            case .github, .stripe:
                if secret == nil {
                    problems.append(
                        OptionProblem(
                            key: nil,
                            "webhook: signature \"\(signature.name)\" needs exactly one of secret_env, secret_file or credential"
                        ))
                }
            }
            if let problem = EndpointRules.duration("webhook: tolerance", tolerance, in: Self.toleranceBounds) {
                problems.append(OptionProblem(key: "tolerance", problem))
            }
            if let parentKey {
                do {
                    _ = try JSONPath(parsing: parentKey)
                } catch {
                    problems.append(OptionProblem(key: "parent_key", "webhook: parent_key: \(error)"))
                }
            }
            return problems
        }

        /// The bounds of ``tolerance``.
        package static let toleranceBounds = Duration.seconds(1)...Duration.seconds(86_400)
    }
}
