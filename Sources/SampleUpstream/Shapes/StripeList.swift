/// A Stripe-shaped list of customers, paged as Stripe pages: `limit` records a page (10 by default), the next page
/// asked with `starting_after` = the last record's `id` while `has_more` is true.
///
/// ```json
/// {"object": "list", "data": [{"id": "cus_0000000000099", "object": "customer", …}], "has_more": true,
///  "url": "/v1/customers"}
/// ```
package enum StripeList {
    /// The customers' ids, newest first, as Stripe lists them.
    package static func customerIDs(count: Int) -> [String] {
        (1...max(count, 1)).map { "cus_\(String(repeating: "0", count: 10))\(100 + count - $0)" }
    }

    /// The page that `request` asks for, of `count` customers; an unknown `starting_after` gives Stripe's 400.
    package static func answer(_ request: UpstreamRequest, count: Int) -> UpstreamResponse {
        let ids = customerIDs(count: count)
        let limit = Int(request.query["limit"] ?? "").map { min(max($0, 1), 100) } ?? 10
        var start = 0
        if let cursor = request.query["starting_after"] {
            guard let index = ids.firstIndex(of: cursor) else {
                return .json(
                    Array(#"{"error": {"type": "invalid_request_error", "message": "No such customer"}}"#.utf8),
                    status: 400)
            }
            start = index + 1
        }
        let page = ids[start...].prefix(limit)
        let records = page.map {
            #"{"id": "\#($0)", "object": "customer", "email": "\#($0)@example.com", "metadata": {"id": "m"}}"#
        }
        let hasMore = start + page.count < ids.count
        return .json(
            Array(
                (#"{"object": "list", "data": [\#(records.joined(separator: ", "))], "has_more": \#(hasMore), "#
                    + #""url": "/v1/customers"}"#).utf8))
    }
}
