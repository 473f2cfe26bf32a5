/// A problem with one option of an endpoint, in the TOML file's words, and the key inside the option it concerns.
///
/// The rules that find these are written once and serve both front doors: the TOML reader reports each at the line
/// of its key, and ``SyncEndpoint`` prefixes each with the endpoint's name.
package struct OptionProblem: Error, Sendable, Hashable {
    /// The key inside the option (`cursor_path` of `pagination`); nil when it is the option as a whole.
    package var key: String?
    /// The sentence, starting with the option's name: `pagination: max_pages must be a whole number from 1 to …`.
    package var sentence: String

    package init(key: String?, _ sentence: String) {
        self.key = key
        self.sentence = sentence
    }
}
