import SyncSupport

/// The entity tags of what is read from one store, `"<instance>.<version>"` (``EntityTag``): the one place a read's
/// tag is minted, for every store and for the read API's and the library's revalidations.
///
/// A list, a change feed and a document are tagged with their endpoint's version, a record with its own: a tag moves
/// exactly when what it describes may have, and a rebuilt store (a new instance) never matches another's tags.
package struct ReadTags: Sendable, Hashable {
    /// The store's instance id (``StorageReader/instance()``).
    package var instance: String

    package init(instance: String) {
        self.instance = instance
    }

    /// The tag of what is stored at `version`.
    package func tag(_ version: Int64) -> String {
        EntityTag.make(instance: instance, version: version)
    }

    /// The tag of an endpoint's lists, change feed and document: its version.
    package func tag(_ state: EndpointState) -> String {
        tag(state.version)
    }
}

extension StorageReader {
    /// The tags of what this reader reads.
    package func tags() throws -> ReadTags {
        ReadTags(instance: try instance())
    }
}
