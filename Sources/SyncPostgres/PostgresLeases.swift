internal import FoundationEssentials
internal import PostgresNIO
package import SyncCore
import SyncSupport

/// ``EndpointLeasing`` in PostgreSQL: a row of `syncd_leases` per endpoint, taken with `FOR UPDATE SKIP LOCKED`.
///
/// A claim takes an endpoint's row when its lease has run out or was handed back (`expires_at`, on the server's
/// clock) and the endpoint is due (`due_at`, which the nodes' clocks write as they write `next_due_at`); a row
/// another node has locked at that moment (claiming, or handing back) is skipped, not waited for. Each process
/// holds its claims under a token of its own, so two processes given one node name still never share a claim.
package struct PostgresLeases: EndpointLeasing {
    package let store: PostgresStore
    package let node: String
    package let lease: Double
    /// The node's name and a random token: the claims of this process, and of no other.
    package let holder: String

    package init(store: PostgresStore, node: String, lease: Double) {
        self.store = store
        self.node = node
        self.lease = lease
        self.holder = "\(node)/\(UUID().uuidString.lowercased())"
    }

    package func claim(_ names: [String], now: Double, requested: Set<String> = []) async throws -> LeaseClaims {
        guard !names.isEmpty else { return LeaseClaims() }
        let leases = self
        return try await store.withSession { session in
            try session.transaction { try leases.claim(names, now: now, requested: requested, session) }
        }
    }

    private func claim(
        _ names: [String], now: Double, requested: Set<String>, _ session: PostgresSession
    ) throws -> LeaseClaims {
        // A row for each endpoint first, due when the shared schedule says (a database synced before leases existed
        // keeps its schedule). A row another node is inserting this moment is waited for: a moment.
        try session.query(
            """
            INSERT INTO syncd_leases (endpoint, due_at)
            SELECT w.name, e.next_due_at FROM unnest($1::text[]) AS w(name)
            LEFT JOIN syncd_endpoints AS e ON e.name = w.name
            ON CONFLICT (endpoint) DO NOTHING
            """, [.texts(names)])
        // The claim: the row lock is taken on the row's newest version, so a hand-back committed since this statement
        // began is seen with the due time it stored.
        let claimed = try session.query(
            """
            UPDATE syncd_leases AS l SET holder = $2, node = $3, expires_at = now() + make_interval(secs => $4)
            FROM (
                SELECT endpoint FROM syncd_leases
                WHERE endpoint = ANY($1::text[]) AND expires_at <= now()
                    AND (due_at IS NULL OR due_at <= $5 OR endpoint = ANY($6::text[]))
                FOR UPDATE SKIP LOCKED
            ) AS free
            WHERE l.endpoint = free.endpoint
            RETURNING l.endpoint
            """,
            [
                .texts(names), .text(holder), .text(node), .real(lease), .text(Timestamp.format(now)),
                .texts(names.filter(requested.contains)),
            ]
        ).rows.map { try $0[0].decode(String.self) }
        var claims = LeaseClaims()
        let taken = Set(claimed)
        // Why not the others, and every one's failures as stored (a plain read: it waits for no lock).
        for row in try session.query(
            """
            SELECT l.endpoint,
                CASE WHEN l.expires_at > now() THEN extract(epoch FROM l.expires_at - now())::float8 ELSE 0 END,
                l.due_at,
                COALESCE(e.consecutive_failures, 0)
            FROM syncd_leases AS l LEFT JOIN syncd_endpoints AS e ON e.name = l.endpoint
            WHERE l.endpoint = ANY($1::text[])
            """, [.texts(names)]
        ).rows {
            let name = try row[0].decode(String.self)
            let failures = Int(try row[3].decode(Int32.self))
            if taken.contains(name) {
                claims.claimed[name] = failures
                continue
            }
            let remaining = try row[1].decode(Double.self)
            let due = try row[2].decode(String?.self).flatMap(Timestamp.parse)
            if remaining.isFinite, remaining > 0 {
                claims.refused[name] = .held(seconds: remaining)
            } else if let due, due > now, !requested.contains(name) {
                claims.refused[name] = .notDue(until: due)
            } else {
                claims.refused[name] = .contended
            }
        }
        return claims
    }

    /// A claim handed back (`-infinity`) is not taken again: its run ended, and another node may have claimed it since.
    package func renew(_ names: [String]) async throws {
        guard !names.isEmpty else { return }
        let leases = self
        _ = try await store.withSession { session in
            try session.query(
                """
                UPDATE syncd_leases SET expires_at = now() + make_interval(secs => $3)
                WHERE holder = $1 AND endpoint = ANY($2::text[]) AND expires_at <> '-infinity'
                """, [.text(leases.holder), .texts(names), .real(leases.lease)])
        }
    }

    package func finish(
        _ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let leases = self
        let names = rows.map(\.name)
        // "" stands for NULL: an array of optionals is not something the driver binds.
        let dues = rows.map { $0.due.map(Timestamp.format) ?? "" }
        let reasons = rows.map { $0.reason ?? "" }
        store.write(
            { session in
                // One statement: the claims still this process's are handed back with their next due times, and only
                // their endpoints' schedule is stored (an endpoint another node took is that node's).
                try session.query(
                    """
                    WITH released AS (
                        UPDATE syncd_leases AS l SET expires_at = '-infinity', due_at = NULLIF(v.due, '')
                        FROM unnest($1::text[], $2::text[]) AS v(name, due)
                        WHERE l.endpoint = v.name AND l.holder = $3
                        RETURNING l.endpoint, l.due_at
                    )
                    UPDATE syncd_endpoints AS e SET next_due_at = r.due_at, last_node = $4,
                        schedule_reason = NULLIF(v.why, '')
                    FROM released AS r JOIN unnest($1::text[], $5::text[]) AS v(name, why) ON v.name = r.endpoint
                    WHERE e.name = r.endpoint
                    """, [.texts(names), .texts(dues), .text(leases.holder), .text(leases.node), .texts(reasons)])
            }, completion: completion)
    }

    package func releaseAll() async throws {
        let leases = self
        _ = try await store.withSession { session in
            try session.query(
                "UPDATE syncd_leases SET expires_at = '-infinity' WHERE holder = $1 AND expires_at > now()",
                [.text(leases.holder)])
        }
    }
}
