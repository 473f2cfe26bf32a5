internal import FoundationEssentials

extension SyncConfiguration {
    /// How `syncd run` shares a PostgreSQL database with other nodes (`[cluster]`): each due endpoint is claimed by one
    /// node for `lease` (renewed while its run lasts), so no endpoint is polled twice at once, and a node that stops or
    /// dies loses its claims after `lease`. An SQLite database belongs to one machine: there the section changes nothing.
    public struct Cluster: Sendable, Hashable {
        /// How long a claim lasts when the file does not say.
        package static let defaultLease: Duration = .seconds(30)

        /// The name `syncd status` and `/v1/endpoints` show for this node. The default is nil: the host name.
        public package(set) var node: String?
        /// How long a claim on an endpoint lasts without renewal: how soon the other nodes take over the endpoints of a
        /// node that died. The default is 30 s; 2 s ... 1 h.
        public package(set) var lease: Duration

        package init(node: String? = nil, lease: Duration = Cluster.defaultLease) {
            self.node = node
            self.lease = lease
        }

        /// The node's name: `node`, else the host name (cut to a name's 63 bytes), else `syncd`.
        public var nodeName: String {
            if let node { return node }
            let host = ProcessInfo.processInfo.hostName
            let name = String(host.unicodeScalars.filter(Self.isNameScalar).prefix(Self.maxNameLength))
            return name.isEmpty ? "syncd" : name
        }

        /// The longest `node`, in bytes (PostgreSQL's identifiers, and a host name's label, are as long).
        package static let maxNameLength = 63

        /// Why `text` cannot be a node's name, in one sentence; nil when it can.
        package static func problem(withName text: String) -> String? {
            if text.isEmpty || text.utf8.count > maxNameLength {
                return "node must be 1 to \(maxNameLength) bytes long"
            }
            if !text.unicodeScalars.allSatisfy(isNameScalar) {
                return "node may hold only letters, digits, \".\", \"-\" and \"_\""
            }
            return nil
        }

        private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": true
            default: false
            }
        }
    }
}
