import Foundation

/// Just enough of an HLS master and media playlist, read line by line, to check what the ladder media declares
/// (independent of the Streaming module's parser, which the ladder is there to test).
enum MasterPlaylistLines {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each `#EXT-X-STREAM-INF` of the master playlist at `path`: its attributes (values as written, quotes kept) and
    /// the URI on the line after it.
    static func read(_ path: String) throws -> [(attributes: [String: String], uri: String)] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        var variants: [(attributes: [String: String], uri: String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") {
            guard index + 1 < lines.count else { throw Failure(description: "\(path): no URI after \(line)") }
            variants.append((attributes(line.dropFirst("#EXT-X-STREAM-INF:".count)), lines[index + 1]))
        }
        return variants
    }

    /// `NAME=value` pairs separated by commas outside quotes.
    static func attributes(_ list: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var pair = ""
        var quoted = false
        for character in list + "," {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted {
                if let equals = pair.firstIndex(of: "=") {
                    result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
                }
                pair = ""
            } else {
                pair.append(character)
            }
        }
        return result
    }

    /// The peak and average bit rates of the segments of the media playlist at `path` (a segment's bytes, the size
    /// of its file, over its `#EXTINF` duration), in bits per second.
    static func segmentRates(_ path: String) throws -> (peak: Double, average: Double) {
        let folder = (path as NSString).deletingLastPathComponent
        var duration: Double?
        var peak = 0.0
        var bits = 0.0
        var total = 0.0
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })
            } else if !line.hasPrefix("#") {
                guard let seconds = duration, seconds > 0 else { throw Failure(description: "\(path): \(line)") }
                let size = try FileManager.default.attributesOfItem(atPath: "\(folder)/\(line)")[.size] as? Int ?? 0
                peak = max(peak, Double(size * 8) / seconds)
                bits += Double(size * 8)
                total += seconds
                duration = nil
            }
        }
        guard total > 0 else { throw Failure(description: "\(path): no segment") }
        return (peak, bits / total)
    }
}
