import FoundationEssentials
import SyncCore
import Synchronization

/// `syncd sync`'s live lines on a terminal: one per running endpoint, redrawn in place as the sync goes, each
/// replaced by its summary line when the endpoint ends, and all cleared at the end. Drawn with a cursor-up and an
/// erase-below, each line cut to the terminal's width so that the lines to redraw are the lines drawn.
final class LiveProgress: Sendable {
    private struct State {
        /// The running endpoints' latest progress, in the order they started.
        var lines: [SyncProgress] = []
        /// Endpoints whose summary was printed: a late update must not bring their line back.
        var ended: Set<String> = []
        /// Lines on the screen below the last summary.
        var drawn = 0
    }

    private let terminal: Terminal
    private let now: @Sendable () -> Double
    private let width: Int
    private let state = Mutex(State())

    init(terminal: Terminal, now: @escaping @Sendable () -> Double) {
        self.terminal = terminal
        self.now = now
        width = terminal.columns
    }

    /// Whether live lines are drawn for `terminal` in `environment`: on a terminal, unless `NO_COLOR` is set (and not
    /// empty) or `TERM` is `dumb`.
    static func isShown(on terminal: Terminal, environment: [String: String]) -> Bool {
        guard terminal.isTTY, environment["TERM"] != "dumb" else { return false }
        return environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// A run's progress came: its line is redrawn.
    func show(_ progress: SyncProgress) {
        state.withLock { state in
            guard !state.ended.contains(progress.endpoint) else { return }
            if let index = state.lines.firstIndex(where: { $0.endpoint == progress.endpoint }) {
                state.lines[index] = progress
            } else {
                state.lines.append(progress)
            }
            draw(&state, above: "")
        }
    }

    /// Redraws every line from what the runs have reached (rates move on, and a count the throttle held back shows).
    func refresh(_ running: [SyncProgress]) {
        state.withLock { state in
            for progress in running where !state.ended.contains(progress.endpoint) {
                if let index = state.lines.firstIndex(where: { $0.endpoint == progress.endpoint }) {
                    state.lines[index] = progress
                }
            }
            draw(&state, above: "")
        }
    }

    /// `endpoint` ended: its line goes, and `summary` (the endpoint's summary lines) is printed above the others.
    func ended(_ endpoint: String, summary: String) {
        state.withLock { state in
            state.ended.insert(endpoint)
            state.lines.removeAll { $0.endpoint == endpoint }
            draw(&state, above: summary)
        }
    }

    /// Erases the live lines: the sync is over.
    func clear() {
        state.withLock { state in
            state.lines = []
            draw(&state, above: "")
        }
    }

    /// Erases the lines drawn, prints `text`, and draws the lines: one write, so that the screen never shows half.
    private func draw(_ state: inout State, above text: String) {
        var output = state.drawn > 0 ? "\u{1B}[\(state.drawn)A\u{1B}[J\r" : ""
        output += text
        let now = self.now()
        for progress in state.lines {
            let line = "\(progress.endpoint): \(progress.summary(at: now))"
            output += String(line.prefix(max(1, width - 1))) + "\n"
        }
        state.drawn = state.lines.count
        if !output.isEmpty { terminal.write(output) }
    }
}
