internal import SyncCore
import SyncSupport

/// How text goes into a log line so that one message is one line: the escaping behind ``JournalLogHandler``.
enum LogLineText {
    /// `text` with line breaks and other control characters escaped: `\n`, `\r`, and `\xHH` for the rest of C0, DEL
    /// and C1 (a tab stays). journald would split a line feed into two entries, and a terminal would obey an escape.
    static func escaped(_ text: String) -> String {
        ControlCharacters.escaped(text, .log)
    }

    /// A metadata value: ``escaped(_:)``, then quoted when it is empty or holds a space, a tab or a quote, with `\`
    /// and `"` escaped inside the quotes, so `key=value` pairs split back unambiguously.
    static func value(_ text: String) -> String {
        let text = escaped(text)
        guard text.isEmpty || text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return text }
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
