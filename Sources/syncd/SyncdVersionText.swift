import SyncCore

enum SyncdVersionText {
    static let current = SyncdVersion.current
}
