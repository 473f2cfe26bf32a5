import FoundationEssentials

/// Turns the paths a configuration names into absolute ones, relative to the configuration file's directory,
/// since the daemon's working directory is arbitrary.
enum PathResolution {
    /// The absolute, normalized directory holding a file given as `path` (relative to the working directory).
    static func directory(of path: String) -> String {
        var components = absolute(path).split(separator: "/")
        components.removeLast(components.isEmpty ? 0 : 1)
        return "/" + components.joined(separator: "/")
    }

    /// `path` made absolute against `directory` (when relative) and normalized: no `.`, `..` or empty components.
    static func resolve(_ path: String, against directory: String) -> String {
        normalize(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    private static func absolute(_ path: String) -> String {
        resolve(path, against: FileManager.default.currentDirectoryPath)
    }

    private static func normalize(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": components.removeLast(components.isEmpty ? 0 : 1)
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
