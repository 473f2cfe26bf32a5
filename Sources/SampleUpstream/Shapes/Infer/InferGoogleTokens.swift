/// A Google-like list, paged by token: `nextPageToken` in the body, sent back as `pageToken`; the last page has
/// none. 10 items a page (`maxResults`).
///
/// ```json
/// {"kind": "books#volumes", "items": [{"id": "vol-0", "etag": "e0", "volumeInfo": {"title": "Volume 0"}}, …],
///  "nextPageToken": "CAoQAA"}
/// ```
package enum InferGoogleTokens {
    /// The items.
    package static let count = 33

    /// The page that `request` asks for; an unknown token gives Google's 400.
    package static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let size = InferPaging.number(request.query["maxResults"], in: 1...40, fallback: 10)
        var start = 0
        if let token = request.query["pageToken"] {
            guard let offset = offset(of: token) else {
                return .json(Array(#"{"error": {"code": 400, "message": "Invalid page token"}}"#.utf8), status: 400)
            }
            start = offset
        }
        let positions = InferPaging.positions(start: start, size: size, count: count)
        let items = positions.map { position in
            #"{"id": "vol-\#(position)", "etag": "e\#(position)", "volumeInfo": {"title": "Volume \#(position)", "#
                + #""pageCount": \#(100 + position)}}"#
        }
        let next = positions.upperBound < count ? #", "nextPageToken": "\#(token(for: positions.upperBound))""# : ""
        return InferPaging.json(
            #"{"kind": "books#volumes", "totalItems": \#(count), "items": [\#(items.joined(separator: ", "))]\#(next)}"#
        )
    }

    /// An opaque-looking token for an offset.
    static func token(for offset: Int) -> String { "CA\(offset)QAA" }

    /// The offset a token stands for.
    static func offset(of token: String) -> Int? {
        guard token.hasPrefix("CA"), token.hasSuffix("QAA") else { return nil }
        return Int(token.dropFirst(2).dropLast(3))
    }
}
