// Links each child endpoint to its parent once every endpoint of a configuration is compiled: the rules that need
// both (the parent exists, has records, makes no cycle, has the columns named), and the compiled FanOutPlan.

import SyncDecoding
package import SyncSQLite

/// How a child endpoint reads its parent's rows: the plan ``FanOutLink`` adds to it.
package struct FanOutPlan: Sendable, Equatable {
    /// The parent's name, also its table's.
    package var parent: SQLIdentifier
    /// The parent's key columns, in key order.
    package var parentKey: [String]
    /// The parent's columns each parent row is read with: the URL's `{parent.NAME}`s, then the parent columns'
    /// sources, each once.
    package var parentColumns: [String]
    /// For each of the child's parent columns (the table's columns after its own, in order), its index in
    /// ``parentColumns``.
    package var sources: [Int]
    /// Which parents a run walks.
    package var selection: SyncEndpoint.ChildSelection
    /// The most parents a run walks.
    package var maxParents: Int
    /// The parents walked at once.
    package var concurrency: Int
    /// The child's `{parent.NAME}` templates, parsed once.
    var templates: ChildRequest.Templates
}

/// The linking of child endpoints to their parents.
package enum FanOutLink {
    /// A problem of one endpoint, at one of its keys.
    package struct Problem: Sendable, Equatable {
        /// The endpoint's position in the plans.
        package var index: Int
        /// The key of syncd.toml the problem is about.
        package var key: String
        package var message: String
    }

    /// Links every child of `plans` to its parent, parents first: the parent columns take their source's type, and
    /// each child its ``FanOutPlan``. Returns the problems; a child with a problem is left unlinked.
    package static func link(_ plans: inout [EndpointConfiguration]) -> [Problem] {
        var problems: [Problem] = []
        let positions = Dictionary(
            plans.enumerated().map { ($1.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        var linked = Set<Int>()
        var failed = Set<Int>()
        func link(_ index: Int, chain: [Int]) {
            guard !linked.contains(index), !failed.contains(index) else { return }
            guard let parentName = plans[index].declared.parent else {
                linked.insert(index)
                return
            }
            func fail(_ key: String, _ message: String) {
                problems.append(Problem(index: index, key: key, message: message))
                failed.insert(index)
            }
            guard let parent = positions[parentName] else {
                return fail("parent", "parent \"\(parentName)\" is not an endpoint of this file")
            }
            if chain.contains(parent) || parent == index {
                let names = (chain + [index, parent]).drop { $0 != parent }.map { plans[$0].name.name }
                return fail("parent", "parent \"\(parentName)\" makes a cycle: \(names.joined(separator: " → "))")
            }
            link(parent, chain: chain + [index])
            guard !failed.contains(parent) else { return fail("parent", "parent \"\(parentName)\" has problems") }
            let source = plans[parent]
            guard !source.isDocument else {
                return fail("parent", "parent \"\(parentName)\" is a document endpoint: a parent needs \"records\"")
            }
            let names = source.columns.map(\.name)
            var read: [String] = []
            for name in ChildRequest.names(of: plans[index].declared) {
                guard names.contains(name) else {
                    let key = ChildRequest.texts(of: plans[index].declared).first {
                        $0.text.contains("{parent.\(name)")
                    }
                    return fail(
                        key?.key ?? "url",
                        "{parent.\(name)}: the endpoint \"\(parentName)\" has no column \"\(name)\"")
                }
                if !read.contains(name) { read.append(name) }
            }
            var plan = plans[index]
            var sources: [Int] = []
            for position in plan.ownColumnCount..<plan.columns.count {
                let column = plan.columns[position].name
                guard let from = plan.declared.parentColumns[column],
                    let type = source.columns.first(where: { $0.name == from })?.type
                else {
                    let from = plan.declared.parentColumns[column] ?? column
                    return fail(
                        "parent_columns",
                        "parent_columns: \(column) = \"\(from)\": the endpoint \"\(parentName)\" has no column \"\(from)\""
                    )
                }
                plan.columns[position].type = type
                if !read.contains(from) { read.append(from) }
                sources.append(read.firstIndex(of: from) ?? 0)
            }
            let templates: ChildRequest.Templates
            do {
                templates = try ChildRequest.Templates(plan)
            } catch {
                return fail("url", "\(error)")
            }
            plan.fanOut = FanOutPlan(
                parent: source.name, parentKey: source.primaryKey.map { source.columns[$0].name }, parentColumns: read,
                sources: sources, selection: plan.declared.children, maxParents: plan.declared.maxParents,
                concurrency: plan.declared.parentConcurrency, templates: templates)
            plans[index] = plan
            linked.insert(index)
        }
        for index in plans.indices { link(index, chain: []) }
        return problems
    }

    /// The endpoints in waves: each wave's parents are in earlier waves, so that a sync of all of them runs a child
    /// after its parent finished.
    package static func waves(_ plans: [EndpointConfiguration]) -> [[Int]] {
        let positions = Dictionary(
            plans.enumerated().map { ($1.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        var depth = [Int?](repeating: nil, count: plans.count)
        func depthOf(_ index: Int, seen: Int) -> Int {
            if let known = depth[index] { return known }
            guard seen < plans.count, let parent = plans[index].fanOut.flatMap({ positions[$0.parent.name] }) else {
                return 0
            }
            let value = depthOf(parent, seen: seen + 1) + 1
            depth[index] = value
            return value
        }
        var waves: [[Int]] = []
        for index in plans.indices {
            let level = depthOf(index, seen: 0)
            while waves.count <= level { waves.append([]) }
            waves[level].append(index)
        }
        return waves
    }
}
