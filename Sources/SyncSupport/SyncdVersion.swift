/// The version of syncd and SyncCore.
package enum SyncdVersion {
    package static let current = "0.1.0"
}
