import Dispatch
import Foundation
import Locking
import PlayctlOutput
import Posters

/// `playctl poster --batch LIST`: every line's poster through one pipeline, all asked for at once (the pipeline
/// bounds the decodes), printed in the list's order with their timings, then the pipeline's figures.
struct PosterBatch {
    /// One line of the list.
    struct Entry: Equatable {
        let source: String
        let time: Double?
    }

    let entries: [Entry]
    let pipeline: PosterPipeline
    let output: StandardOutput
    let json: Bool
    let makeRequest: @Sendable (String, Double?) -> PosterRequest

    init(
        entries: [Entry], pipeline: PosterPipeline, output: StandardOutput, json: Bool,
        request: @escaping @Sendable (String, Double?) -> PosterRequest
    ) {
        self.entries = entries
        self.pipeline = pipeline
        self.output = output
        self.json = json
        makeRequest = request
    }

    /// The entries of the list at `path`: `SOURCE` or `SOURCE SEC` a line; blank lines and `#` comments skipped.
    /// - Throws: `CommandFailure` naming the file and the line when it cannot be read or a line is not one.
    static func read(_ path: String) throws(CommandFailure) -> [Entry] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("\(path): cannot read the list (\(error.localizedDescription))")
        }
        var entries: [Entry] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !fields.isEmpty else { continue }
            guard fields.count <= 2 else {
                throw CommandFailure("\(path):\(number + 1): expected 'SOURCE' or 'SOURCE SEC', got '\(line)'")
            }
            var time: Double?
            if fields.count == 2 {
                guard let seconds = Double(fields[1]), seconds >= 0, seconds.isFinite else {
                    throw CommandFailure("\(path):\(number + 1): '\(fields[1])' is not a time in seconds")
                }
                time = seconds
            }
            entries.append(Entry(source: fields[0], time: time))
        }
        guard !entries.isEmpty else { throw CommandFailure("\(path): the list names no source") }
        return entries
    }

    /// Asks for every poster, prints them in order, then the summary. Exits 1 (a `CommandFailure`) when any
    /// failed, after printing all.
    func run() throws(CommandFailure) {
        let pipeline = self.pipeline
        let requests = entries.map { makeRequest($0.source, $0.time) }
        let results = AsyncWork.wait { () async -> [Result<Poster, MediaError>] in
            await withTaskGroup(of: (Int, Result<Poster, MediaError>).self) { group in
                for (index, request) in requests.enumerated() {
                    group.addTask {
                        do throws(MediaError) {
                            return (index, .success(try await pipeline.poster(for: request)))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var collected: [(Int, Result<Poster, MediaError>)] = []
                for await pair in group { collected.append(pair) }
                precondition(collected.count == requests.count, "\(collected.count) of \(requests.count) answered")
                return collected.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
        var failures = 0
        for (entry, result) in zip(entries, results) {
            switch result {
            case .success(let poster):
                if json {
                    try output.json(PosterBatchReport.json(entry: entry, poster: poster))
                } else {
                    try output.line(PosterBatchReport.text(entry: entry, poster: poster))
                }
            case .failure(let error):
                failures += 1
                if json {
                    try output.json(
                        .object([
                            ("event", "poster.failed"), ("source", .string(entry.source)),
                            ("error", .string(error.description)),
                        ]))
                } else {
                    try output.line("\(entry.source): failed: \(error)")
                }
            }
        }
        let statistics = pipeline.statistics
        if json {
            try output.json(PosterBatchReport.json(statistics))
        } else {
            for line in PosterBatchReport.text(statistics) { try output.line(line) }
        }
        if failures > 0 { throw CommandFailure("\(failures) of \(entries.count) posters failed") }
    }
}
