import Foundation

/// The endpoint whose reads the stores are compared on, which the query compiler's and the in-memory store's tests
/// read too.
package enum ReadDifferentialFixture {
    package static let toml = """
        [[endpoint]]
        name = "people"
        url = "https://example.com/people"
        records = "$"
        primary_key = "id"
        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        city = "city"
        score = { path = "score", type = "real" }
        active = { path = "active", type = "boolean" }
        joined = { path = "joined", type = "timestamp" }
        """
}
