import Foundation

/// A strict reader of WebVTT files as the W3C WebVTT specification's parser reads them (signature, blocks
/// separated by blank lines, cue timings `hh:mm:ss.ttt --> hh:mm:ss.ttt` with optional hours, minutes and
/// seconds below 60, exactly three decimals), failing where a web player would drop a cue: what a storyboard's
/// track must pass.
public enum WebVTTParser {
    public struct Cue: Equatable, Sendable {
        public let identifier: String?
        public let start: Double
        public let end: Double
        public let text: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String) throws -> [Cue] {
        // Line terminators: CRLF, LF or CR.
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first else { throw Failure(description: "empty file") }
        // The signature: "WEBVTT" alone or followed by a space or tab (and anything).
        let signature = first.hasPrefix("\u{FEFF}") ? String(first.dropFirst()) : first
        guard signature == "WEBVTT" || signature.hasPrefix("WEBVTT ") || signature.hasPrefix("WEBVTT\t") else {
            throw Failure(description: "no WEBVTT signature: \(first)")
        }
        lines.removeFirst()
        // The header's other lines run to the first blank line.
        while let line = lines.first, !line.isEmpty { lines.removeFirst() }
        var cues: [Cue] = []
        var block: [String] = []
        for line in lines + [""] {
            if line.isEmpty {
                if !block.isEmpty { cues.append(try cue(block)) }
                block = []
            } else {
                block.append(line)
            }
        }
        return cues
    }

    private static func cue(_ block: [String]) throws -> Cue {
        var lines = block
        var identifier: String?
        if !lines[0].contains("-->") {
            identifier = lines.removeFirst()
            guard !lines.isEmpty else { throw Failure(description: "a block with no cue timings: \(block)") }
        }
        let timing = lines.removeFirst()
        guard let arrow = timing.range(of: " --> ") else {
            throw Failure(description: "cue timings need ' --> ' between blanks: \(timing)")
        }
        let start = try timestamp(String(timing[..<arrow.lowerBound]))
        let rest = timing[arrow.upperBound...]
        let endText = rest.prefix { $0 != " " && $0 != "\t" }
        let end = try timestamp(String(endText))
        guard end > start else { throw Failure(description: "a cue ends before it starts: \(timing)") }
        guard lines.allSatisfy({ !$0.contains("-->") }) else { throw Failure(description: "'-->' in a cue's text") }
        return Cue(identifier: identifier, start: start, end: end, text: lines.joined(separator: "\n"))
    }

    /// `[hh:]mm:ss.ttt`: hours of two or more digits, minutes and seconds of two below 60, three decimals.
    public static func timestamp(_ text: String) throws -> Double {
        let fail = Failure(description: "not a WebVTT timestamp: '\(text)'")
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw fail }
        let secondsPart = parts.last!.split(separator: ".", omittingEmptySubsequences: false)
        guard secondsPart.count == 2, secondsPart[0].count == 2, secondsPart[1].count == 3 else { throw fail }
        let fields = parts.dropLast().map(String.init) + [String(secondsPart[0]), String(secondsPart[1])]
        guard fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw fail
        }
        if parts.count == 3 { guard parts[0].count >= 2 else { throw fail } }
        let minutes = Int(parts[parts.count - 2])!
        let seconds = Int(secondsPart[0])!
        guard parts[parts.count - 2].count == 2, minutes < 60, seconds < 60 else { throw fail }
        let hours = parts.count == 3 ? Int(parts[0])! : 0
        return Double(hours * 3600 + minutes * 60 + seconds) + Double(Int(secondsPart[1])!) / 1000
    }
}
