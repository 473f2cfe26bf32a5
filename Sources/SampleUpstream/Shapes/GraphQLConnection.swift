import FoundationEssentials
import SyncCore

/// A GraphQL server for one connection, `repository.issues`, paged as GitHub pages it: `first` issues a page, the
/// next asked with the `after` variable set to the page's `pageInfo.endCursor` while `hasNextPage` is true.
///
/// It answers only a POST of `application/json` whose `query` asks `issues(first: $first, after: $after)`, and a
/// GraphQL error (in a 200, as GraphQL servers do) for anything else, or for a cursor it did not give.
package enum GraphQLConnection {
    /// A query this server answers, with `first` = 3 and `after` = null, as a syncd.toml `body` holds it.
    package static let query = #"""
        {"query": "query($first: Int!, $after: String) { repository(owner: \"o\", name: \"r\") { issues(first: $first, after: $after) { nodes { number title author { login } } pageInfo { endCursor hasNextPage } } } }",
         "variables": {"first": 3, "after": null}}
        """#

    /// An `[[endpoint]]` of syncd.toml that syncs this server's issues from `url`, sending `bodyLine`
    /// (`body = '''…'''` or `body_file = "…"`).
    package static func endpointTOML(url: String, bodyLine: String) -> String {
        """
        [[endpoint]]
        name = "issues"
        url = "\(url)"
        method = "POST"
        \(bodyLine)
        records = "data.repository.issues.nodes"
        primary_key = ["number"]
        pagination = { type = "cursor", cursor_path = "data.repository.issues.pageInfo.endCursor", body_path = "variables.after", has_more_path = "data.repository.issues.pageInfo.hasNextPage" }

        [endpoint.columns]
        number = { path = "number", type = "integer" }
        title = "title"
        author = "author.login"
        """
    }

    /// The answer to `request`, over `count` issues numbered from 1.
    package static func answer(_ request: UpstreamRequest, count: Int) -> UpstreamResponse {
        guard request.method == "POST", request.header("Content-Type") == "application/json",
            case .object(let object) = try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)),
            case .string(let query) = object["query"], query.contains("issues(first: $first, after: $after)"),
            case .object(let variables) = object["variables"], case .integer(let wanted) = variables["first"],
            let first = Int(exactly: wanted),
            (1...100).contains(first)
        else {
            return error("this server answers the repository's issues, asked with $first and $after")
        }
        let after: String? = if case .string(let cursor) = variables["after"] { cursor } else { nil }
        let start = after.flatMap { $0.hasPrefix("Y3Vyc29y") ? Int($0.dropFirst(8)) : nil } ?? 0
        guard after == nil || (start >= 1 && start <= count) else {
            return error("the cursor is not one of this server's")
        }
        let end = min(start + first, count)
        let nodes = (start..<end).map {
            #"{"number": \#($0 + 1), "title": "Issue \#($0 + 1)", "author": {"login": "ann"}}"#
        }
        return .json(
            Array(
                (#"{"data": {"repository": {"issues": {"nodes": [\#(nodes.joined(separator: ","))], "pageInfo": "#
                    + #"{"endCursor": "Y3Vyc29y\#(end)", "hasNextPage": \#(end < count)}}}}}"#).utf8))
    }

    private static func error(_ message: String) -> UpstreamResponse {
        .json(Array(#"{"data": null, "errors": [{"message": "\#(message)"}]}"#.utf8))
    }
}
