import Foundation

/// The endpoint HTTPBehaviourTests syncs, which the store's tests sync too.
package enum HTTPBehaviourFixture {
    package static let body = #"{"data": [{"id": 1, "name": "Ann"}]}"#

    package static func toml(_ url: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "data"
        primary_key = ["id"]
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        """
    }
}
