import Foundation
import PlayctlOutput

/// `playctl report`: a run's JSON Lines drawn as an SVG timeline.
extension ReportCommand: PlayctlCommand {
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let text: String
        do {
            text = try String(contentsOfFile: input, encoding: .utf8)
        } catch {
            throw CommandFailure("\(input): cannot be read as UTF-8 text (\(error.localizedDescription))")
        }
        let events = Self.events(in: text)
        guard !events.isEmpty else {
            throw CommandFailure("\(input): no JSON event lines (record a run with play --json or feed --json)")
        }
        try Self.write(RunTimeline(events: events), title: Self.fileName(input), to: self.output)
    }

    /// The JSON objects of `text`'s lines that name an event, in order.
    static func events(in text: String) -> [JSONValue] {
        text.split(separator: "\n").compactMap { line -> JSONValue? in
            guard line.hasPrefix("{"),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] is String
            else { return nil }
            return JSONValue(foundation: object)
        }
    }

    /// The last component of `path` (a title that does not depend on the folder a run started in).
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Writes `timeline`'s picture to `path`.
    static func write(_ timeline: RunTimeline, title: String, to path: String) throws(CommandFailure) {
        try OutputFile.write(Array(TimelineSVG.render(timeline, title: title).utf8), to: path)
    }
}
