import SyncTesting
import Testing

@testable import SyncCore

@Suite("configuration: [cluster]")
struct ConfigurationClusterTests {
    @Test("node and lease are read; without them the node is the host name and the lease 30 s")
    func values() throws {
        let defaults = try SyncConfiguration.parse("", sourcePath: "syncd.toml").cluster
        #expect(defaults == SyncConfiguration.Cluster(node: nil, lease: .seconds(30)))
        #expect(!defaults.nodeName.isEmpty && defaults.nodeName.utf8.count <= 63)
        #expect(SyncConfiguration.Cluster.problem(withName: defaults.nodeName) == nil)
        let set = try SyncConfiguration.parse(
            "[cluster]\nnode = \"db-2.eu_west\"\nlease = \"2m\"", sourcePath: "syncd.toml")
        #expect(set.cluster == SyncConfiguration.Cluster(node: "db-2.eu_west", lease: .seconds(120)))
        #expect(set.cluster.nodeName == "db-2.eu_west")
    }

    @Test(
        "a node that is no name is refused, naming the line and the key",
        arguments: [
            ("\"\"", "node must be a name such as \"syncd-1\""),
            ("\"a b\"", "node may hold only letters, digits, \".\", \"-\" and \"_\""),
            ("\"n\\u0007\"", "node may hold only letters, digits, \".\", \"-\" and \"_\""),
            ("\"\(String(repeating: "n", count: 64))\"", "node must be 1 to 63 bytes long"),
            ("7", "node must be a name such as \"syncd-1\""),
        ])
    func badNode(text: String, message: String) {
        #expect(configurationProblems("[cluster]\nnode = \(text)") == ["syncd.toml:2: [cluster]: \(message)"])
    }

    @Test("a lease outside 2 s to 1 h, or not a duration, is refused", arguments: ["\"1s\"", "\"2h\"", "30", "\"x\""])
    func badLease(text: String) {
        let problems = configurationProblems("[cluster]\nlease = \(text)")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("syncd.toml:2: [cluster]: lease must be") == true, "\(problems)")
    }

    @Test("an unknown key, or a cluster that is not a table, is refused")
    func shape() {
        #expect(configurationProblems("[cluster]\nnodes = \"a\"").first?.contains("unknown key \"nodes\"") == true)
        #expect(configurationProblems("cluster = 1") == ["syncd.toml:1: cluster must be a table: write [cluster]"])
    }
}
