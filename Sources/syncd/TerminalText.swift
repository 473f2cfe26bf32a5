import SyncCore
import SyncSupport

/// Text from outside — record values, upstream-derived error sentences — made safe to print: an upstream must not
/// be able to drive the operator's terminal (move the cursor, recolour, retitle the window, fake a prompt).
enum TerminalText {
    /// `text` with every control character — C0 (U+0000–U+001F, tab and line breaks included), DEL (U+007F) and
    /// C1 (U+0080–U+009F) — written as a `\u001b`-style escape. ESC and CSI are among them, so an escape sequence
    /// loses its start and prints as plain characters.
    static func escaped(_ text: String) -> String {
        ControlCharacters.escaped(text, .terminal)
    }

    /// Names and paths from a sample, as `syncd infer`'s summary shows them: as ``escaped(_:)``, and bidirectional
    /// controls too, which would show the text around them in another order than it is read.
    static func escapedNames(_ text: String) -> String {
        ControlCharacters.escaped(text, .code)
    }
}
