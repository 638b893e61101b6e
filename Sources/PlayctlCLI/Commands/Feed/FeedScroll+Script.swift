import PlayctlOutput

/// The scroll `--script FILE` gives: a JSON array of steps `{"at": seconds, "index": i, "speed": items/s}`, in time
/// order. `speed` is optional (0: the scroll has settled); `"tap": true` taps the item (one over the link's autoload
/// cap loads and plays). The last element may be `{"at": seconds}` alone: when
/// the run ends; without it, the last item is watched for ``finalDwell`` seconds.
extension FeedScroll {
    /// Seconds the last item is watched when the script does not say when the run ends.
    static let finalDwell = 3.0

    /// The script at `path`, for a feed of `entries` items.
    /// - Throws: `FeedInputError` naming `path`: unreadable, not JSON, not an array of steps, no step, an index
    ///   out of range, a time before the one of the step before it.
    static func script(_ path: String, entries: Int) throws(FeedInputError) -> FeedScroll {
        try script(path: path, json: FeedInputFile.json(path), entries: entries)
    }

    /// The script `json`, read from the file at `path`.
    static func script(path: String, json: JSONValue, entries: Int) throws(FeedInputError) -> FeedScroll {
        guard let list = json.arrayValue else {
            throw .invalid(file: path, path: "", reason: "expected an array of steps {\"at\": seconds, \"index\": i}")
        }
        var steps: [Step] = []
        var end: Double?
        for (position, value) in list.enumerated() {
            let object = try FeedJSONObject(value, file: path, path: "[\(position)]")
            let at = try object.required("at", object.seconds)
            if let previous = steps.last?.at, at < previous {
                throw object.invalid(
                    "at",
                    "\(DecimalText.format(at)) is earlier than the step before it (\(DecimalText.format(previous)))")
            }
            guard object.has("index") else {
                guard position == list.count - 1, !steps.isEmpty else {
                    throw FeedInputError.invalid(
                        file: path, path: object.path,
                        reason: "missing \"index\" (only the last step may leave it out, to say when the run ends)")
                }
                end = at
                break
            }
            let index = try object.required("index", object.count)
            guard index < entries else {
                throw object.invalid(
                    "index", "\(index) is out of range: the feed has \(entries) entr\(entries == 1 ? "y" : "ies")")
            }
            steps.append(
                Step(
                    at: at, index: index, speed: try object.seconds("speed") ?? 0, tap: try object.bool("tap") ?? false)
            )
        }
        guard let last = steps.last else { throw .empty(file: path, reason: "no steps") }
        return FeedScroll(steps: steps, end: end ?? last.at + finalDwell)
    }
}
