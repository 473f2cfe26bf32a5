/// Counts in words, as `syncd infer` writes them: `1 record`, `2 records`, `1 column`.
package enum Counting {
    /// The count and the noun, plural unless the count is 1: `counted(1, "page")` is `1 page`.
    package static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
