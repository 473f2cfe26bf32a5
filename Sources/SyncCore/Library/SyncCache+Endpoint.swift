internal import SyncSQLite

/// An endpoint compiled, as syncs and reads run by it: what a program that serves the cache (the read API) holds per
/// endpoint, and hands to a ``SyncCache/Reader``'s reads, so that they serve the endpoint as configured without
/// looking it up — from a replica opened without the configuration too.
extension SyncCache {
    /// One endpoint as compiled from its ``SyncEndpoint``: its columns as stored (a key column is required, a
    /// column's path is written out), and every option as declared, by dynamic member lookup (`endpoint.interval`,
    /// `endpoint.isDocument`, `endpoint.primaryKey`).
    ///
    /// ```swift
    /// for endpoint in configuration.compiledEndpoints where !endpoint.isDocument {
    ///     let page = try await cache.read { reader in try reader.records(of: endpoint, SyncCache.Query()) }
    /// }
    /// ```
    @dynamicMemberLookup
    public struct Endpoint: Sendable, Equatable {
        let plan: EndpointConfiguration
        /// The columns, in order, as the table stores them: each with its path written out, a key column required.
        public let columns: [SyncColumn]

        package init(_ plan: EndpointConfiguration) {
            self.plan = plan
            columns = plan.columns.map { spec in
                SyncColumn(spec.name, path: spec.path.description, type: spec.type, required: spec.required)
            }
        }

        /// The endpoint's name, also its table's.
        public var name: String { plan.name.name }

        /// An option as declared: `endpoint.interval`, `endpoint.timeout`, `endpoint.strict`, `endpoint.redactedURL`…
        public subscript<Value>(dynamicMember option: KeyPath<SyncEndpoint, Value>) -> Value {
            plan.declared[keyPath: option]
        }

        public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool { lhs.plan == rhs.plan }
    }
}

extension SyncConfiguration {
    /// The endpoints compiled, in order: what a ``SyncCache/Reader``'s reads of an endpoint take.
    public var compiledEndpoints: [SyncCache.Endpoint] { plans.map(SyncCache.Endpoint.init) }
}
