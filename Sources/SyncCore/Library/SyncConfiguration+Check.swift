internal import FoundationEssentials
import SyncHTTP
import SyncPersistence
internal import SyncSQLite

/// `syncd check-config` as a library call: a configuration checked against what it will meet — its secrets, its
/// client certificates and the database it syncs into — before a daemon starts with it.
extension SyncConfiguration {
    /// What ``check(against:environment:)`` found.
    public struct Check: Sendable, Hashable {
        /// What would stop `syncd run`, one line each in the form of a configuration problem:
        /// `syncd.toml:12: [[endpoint]] "users": primary_key: …`. Empty when the configuration can be used.
        public var problems: [String]
        /// What is worth knowing and stops nothing, one sentence each: a secret or client certificate that cannot be
        /// read now (the first request reads it again), a stored column no longer configured, a database server that
        /// could not be reached.
        public var notes: [String]
    }

    /// Checks what the file's reader could not: that the read API's token can be read, that each stored table can
    /// take its endpoint without losing rows (its primary key), and what is worth a note. A database that does not
    /// exist yet is not a problem: the first sync creates it.
    ///
    /// - Parameters:
    ///   - store: The database syncs go to; nil checks the configuration alone.
    ///   - environment: Where secrets' variables and `$CREDENTIALS_DIRECTORY` are read.
    /// - Throws: ``SyncError`` when the database exists but cannot be read. A database server that cannot be reached
    ///   is a note instead.
    public func check(against store: SyncStore?, environment: [String: String]) async throws(SyncError) -> Check {
        var check = Check(problems: serverTokenProblems(environment), notes: secretNotes(environment))
        guard let store, store.file.map({ FileManager.default.fileExists(atPath: $0) }) ?? true else { return check }
        let storage: any ReadStorage
        do {
            storage = try SyncCache(readingFrom: store, connections: 1).readStorage
        } catch  where store.isShared {
            check.notes.append("the database was not checked against the configuration: \(error)")
            return check
        }
        let plans = self.plans
        let found: [(EndpointConfiguration, StoreError?, [String])]
        do {
            found = try await storage.read { reader in
                try plans.map { plan in
                    (plan, try reader.incompatibility(with: plan), try reader.unconfiguredColumns(of: plan))
                }
            }
        } catch {
            throw .readFailed("\(error)")
        }
        for (plan, conflict, _) in found {
            guard let conflict else { continue }
            check.problems.append(
                ConfigurationError.Problem(
                    file: sourcePath, line: plan.line, context: "[[endpoint]] \"\(plan.name.name)\"",
                    message: "primary_key: \(conflict)"
                ).description)
        }
        for (plan, _, columns) in found {
            for column in columns {
                check.notes.append(
                    "table \"\(plan.name.name)\" has a column \"\(column)\" that is no longer configured; "
                        + "it is kept, and no longer filled")
            }
        }
        return check
    }

    /// The read API's token, read as `run` reads it at start: one problem naming the key's line when it cannot be.
    private func serverTokenProblems(_ environment: [String: String]) -> [String] {
        do {
            _ = try server.readToken(environment: environment)
            return []
        } catch {
            let key = server.tokenFile != nil ? "token_file" : "token_credential"
            let problem = ConfigurationError.Problem(
                file: sourcePath, line: server.tokenLine, context: "[server]", message: "\(key): \(error)")
            return [problem.description]
        }
    }

    /// The endpoints' secrets and client certificates that cannot be read now.
    private func secretNotes(_ environment: [String: String]) -> [String] {
        var notes: [String] = []
        for plan in plans {
            if let reason = plan.tls.unusableReason(environment: environment) {
                notes.append("\(plan.name.name): \(reason)")
            }
            guard let auth = plan.auth else { continue }
            var request = FetchRequest(url: plan.url)
            do {
                try auth.apply(to: &request, environment: environment)
            } catch {
                notes.append("\(plan.name.name): \(error)")
            }
        }
        return notes
    }
}

extension SyncConfiguration.Server {
    /// The token readers must send, read from `token_file` or `token_credential`; nil when the read API takes none.
    /// `syncd run` reads it at start and again on each reload.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidConfiguration``) naming where it was looked for, never the
    ///   token.
    public func readToken(environment: [String: String]) throws(SyncError) -> String? {
        guard let tokenSource else { return nil }
        do {
            return try tokenSource.resolve(environment: environment)
        } catch {
            throw .invalidConfiguration(error)
        }
    }
}
