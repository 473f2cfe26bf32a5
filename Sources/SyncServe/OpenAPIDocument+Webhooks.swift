internal import SyncCore

/// The webhooks in the document: `POST /v1/hooks/{name}` for each endpoint with a `webhook`. A hook is authenticated
/// by its signature, not by the read API's token (its operation's `security` is empty), and is not Host-checked.
extension OpenAPIDocument {
    /// The hook paths of `endpoints`, by path.
    static func hookPaths(_ endpoints: [SyncCache.Endpoint]) -> [String: JSONValue] {
        var paths: [String: JSONValue] = [:]
        for endpoint in endpoints {
            guard let webhook = endpoint.webhook else { continue }
            let name = endpoint.name
            var operation: [String: JSONValue] = [
                "operationId": .string("\(name)_hook"),
                "summary": .string("The upstream's webhook: syncs \(name) at once, coalesced with the other hooks."),
                "description": .string(description(webhook.signature)),
                "tags": .array([.string(name)]),
                "security": .array([]),
                "requestBody": .object([
                    "description": "The upstream's event, as it sent it: signed, never stored, at most 25 MiB.",
                    "content": .object(["*/*": .object(["schema": .object([:])])]),
                ]),
                "responses": .object([
                    "202": json(
                        .object([
                            "type": "object", "required": .array(["endpoint"]),
                            "properties": .object(["endpoint": .object(["type": "string"])]),
                        ]), "The signature matches: a run of the endpoint is coming."),
                    "400": response("BadParameter"),
                    "403": problem("The signature is missing, malformed, outside the tolerance, or not the body's."),
                    "404": problem("There is no webhook at this path."),
                    "413": problem("The body is larger than 25 MiB."),
                    "503": response("Unavailable"),
                ]),
            ]
            if let header = signatureHeader(webhook.signature) {
                operation["parameters"] = .array([
                    .object([
                        "name": .string(header), "in": "header", "required": true,
                        "schema": .object(["type": "string"]),
                    ])
                ])
            }
            paths["/v1/hooks/\(name)"] = .object(["post": .object(operation)])
        }
        return paths
    }

    private static func signatureHeader(_ signature: SyncEndpoint.Webhook.Signature) -> String? {
        switch signature {
        case .github: "X-Hub-Signature-256"
        case .stripe: "Stripe-Signature"
        case .hmacSHA256(let header): header
        case .none: nil
        }
    }

    private static func description(_ signature: SyncEndpoint.Webhook.Signature) -> String {
        switch signature {
        case .github: "Signed as GitHub signs: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`."
        case .stripe:
            "Signed as Stripe signs: `Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of \"t.body\">`, within "
                + "the endpoint's tolerance of now."
        case .hmacSHA256(let header): "Signed in `\(header)`: the HMAC-SHA256 of the body, in hex or base64."
        case .none: "Not signed: the read API listens on loopback or a Unix socket only."
        }
    }
}
