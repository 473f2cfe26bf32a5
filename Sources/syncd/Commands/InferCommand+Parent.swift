import SyncCore
import SyncInfer

/// `syncd infer URL --parent NAME`: the child endpoint's link to its parent, from the parent's rows in the database
/// the configuration names.
extension InferCommand {
    /// Links `endpoint` to the parent endpoint `name`: reads up to ``ParentProposal/rowLimit`` of its stored rows and
    /// finds the column whose value the URL holds.
    ///
    /// - Throws: ``CLIError`` when the configuration has no such collection endpoint, or it holds no rows yet.
    static func link(_ endpoint: inout InferredEndpoint, toParent name: String, options: GlobalOptions) async throws {
        let configuration = try options.loadConfiguration()
        guard let parent = configuration.endpoint(named: name) else { throw CLIError.unknownEndpoint(name) }
        guard !parent.isDocument else {
            throw CLIError(
                "--parent \"\(name)\" is a document endpoint: a parent is a collection, whose rows each child walks",
                exitCode: .usage)
        }
        let cache = try DatabaseAccess.openForReading(options.store(configuration))
        let read: (columns: [String], rows: [[SyncCache.SQLValue]])?
        do {
            read = try await ParentProposal.rows(of: parent, in: cache)
        } catch {
            try? await cache.shutdown()  // best effort: the read's error is the one to report
            throw error
        }
        try await cache.shutdown()
        guard let read else { throw CLIError.notSynced(name) }
        guard !read.rows.isEmpty else {
            throw CLIError("\"\(name)\" holds no rows: a child endpoint walks one per row", exitCode: .notFound)
        }
        if let proposal = ParentProposal.propose(
            url: endpoint.url, parent: name, columns: read.columns, key: parent.primaryKey, rows: read.rows)
        {
            endpoint.parent = proposal
        } else {
            endpoint.unmatchedParent = (name, read.rows.count)
        }
    }
}
