import SyncCore
import SyncSupport

enum SyncdVersionText {
    static let current = SyncdVersion.current
}
