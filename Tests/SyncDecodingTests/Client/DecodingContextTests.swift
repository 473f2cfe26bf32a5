import Foundation
import SyncCore
import SyncTesting
import Testing

// Seed 004: a value resolved through decoder context. PropertySetting<T> takes its defaultValue unless
// valuesByVersion holds an entry for the app version the decoder carries in userInfo.

private struct PropertyEntry<T: Codable & Sendable>: Codable, Sendable {
    let appVersion: String
    let value: T
}

private struct PropertySetting<T: Codable & Sendable>: Decodable, Sendable {
    let defaultValue: T
    let valuesByVersion: [PropertyEntry<T>]?

    enum CodingKeys: String, CodingKey {
        case defaultValue, valuesByVersion
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let valuesByVersion = try container.decodeIfPresent([PropertyEntry<T>].self, forKey: .valuesByVersion)
        let appVersion = decoder.context(AppContext.self)?.appVersion
        self.defaultValue =
            try valuesByVersion?.first { $0.appVersion == appVersion }?.value
            ?? container.decode(T.self, forKey: .defaultValue)
        self.valuesByVersion = valuesByVersion
    }
}

private struct AppContext: Sendable {
    let appVersion: String
}

private struct Settings: Decodable, Sendable {
    let showsBanner: PropertySetting<Bool>
    let pageSize: PropertySetting<Int>
}

private let settings = """
    {
      "showsBanner": {"defaultValue": false, "valuesByVersion": [{"appVersion": "1.4.0", "value": true}]},
      "pageSize": {"defaultValue": 20, "valuesByVersion": [{"appVersion": "1.3.0", "value": 50}]}
    }
    """

@Suite("Decoding context (seed 004)", .timeLimit(.minutes(1)))
struct DecodingContextTests {
    @Test(
        "the version in the decoder's context overrides the default where an entry matches",
        arguments: [
            ("1.4.0", true, 20), ("1.3.0", false, 50), ("2.0.0", false, 20),
        ])
    func versionOverrides(version: String, showsBanner: Bool, pageSize: Int) throws {
        let decoder = JSONDecoder()
        decoder.userInfo[.syncdContext] = AppContext(appVersion: version)
        let decoded = try decoder.decode(Settings.self, from: Data(settings.utf8))
        #expect(decoded.showsBanner.defaultValue == showsBanner)
        #expect(decoded.pageSize.defaultValue == pageSize)
        #expect(decoded.pageSize.valuesByVersion?.count == 1)
    }

    @Test("without a context, the defaults stand")
    func noContext() throws {
        let decoded = try JSONDecoder().decode(Settings.self, from: Data(settings.utf8))
        #expect(decoded.showsBanner.defaultValue == false)
        #expect(decoded.pageSize.defaultValue == 20)
    }

    @Test("over HTTP, the fetch's decoder carries the context")
    func contextOverHTTP() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/settings", settings)
            let decoder = JSONDecoder()
            decoder.userInfo[.syncdContext] = AppContext(appVersion: "1.4.0")
            let decoded = try await APIClient.withClient { client in
                try await client.fetch(
                    APIRequest(baseURL: upstream.url("/settings")), as: Settings.self, decoder: decoder)
            }
            #expect(decoded.showsBanner.defaultValue == true)
        }
    }
}
