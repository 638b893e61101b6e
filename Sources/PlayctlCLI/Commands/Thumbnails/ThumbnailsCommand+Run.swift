import Dispatch
import Loading
import MediaIO
import PlayctlOutput
import Posters

/// `playctl thumbnails`: a storyboard (sprite sheet and WebVTT track) of one video.
extension ThumbnailsCommand: PlayctlCommand {
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let loading = RemoteLoading.isRemote(source) ? RemoteLoading(cache: ByteCache()) : RemoteLoading.shared
        let options = ThumbnailOptions(width: size.width, height: size.height, exact: exact)
        let generator = ThumbnailGenerator(url: source, options: options, loading: loading)
        defer { generator.close() }
        let start = DispatchTime.now().uptimeNanoseconds
        let (every, source) = (every, source)
        let progress = ProgressLine.onStandardError(json: printsJSON)
        let (thumbnails, duration) = try media { () throws(MediaError) in
            try AsyncWork.wait { () async throws(MediaError) -> ([Thumbnail], Double) in
                var made: [Thumbnail] = []
                let times = try await generator.storyboardTimes(every: every)
                for time in times {
                    progress.update("thumbnails", done: made.count, total: times.count)
                    made.append(try await generator.thumbnail(at: time))
                }
                progress.update("thumbnails", done: made.count, total: times.count)
                return (made, try await generator.duration())
            }
        }
        progress.clear()
        let storyboard = Storyboard(thumbnails: thumbnails, columns: columns, duration: duration)
        let sheet = try media { () throws(MediaError) in try storyboard.encodedSprite(named: sprite) }
        try OutputFile.write(sheet, to: sprite)
        try OutputFile.write(Array(storyboard.webVTT(spriteURL: Self.spriteURL(sprite, from: vtt)).utf8), to: vtt)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let received = RemoteLoading.isRemote(source) ? loading.cache.currentStatistics.bytesReceived : nil
        if printsJSON {
            for (tile, thumbnail) in zip(storyboard.tiles, thumbnails) {
                try output.json(
                    .object([
                        ("event", "thumbnail"), ("start", .double(tile.start)), ("end", .double(tile.end)),
                        ("time", .double(thumbnail.time.seconds)), ("x", .int(tile.x)), ("y", .int(tile.y)),
                        ("width", .int(tile.width)), ("height", .int(tile.height)),
                        ("keyframeOffset", thumbnail.keyframeOffset.map { .int(Int($0)) } ?? .null),
                    ]))
            }
            try output.json(
                .object([
                    ("event", "summary"), ("tiles", .int(thumbnails.count)), ("columns", .int(storyboard.columns)),
                    ("rows", .int(storyboard.rows)), ("seconds", .double(seconds)),
                    ("spriteBytes", .int(sheet.count)), ("bytesReceived", received.map { .int(Int($0)) } ?? .null),
                ]))
        } else {
            try output.line(
                "\(thumbnails.count) thumbnails of \(size.width)x\(size.height) every \(DecimalText.format(every)) s, "
                    + "\(storyboard.columns)x\(storyboard.rows) on \(sprite) (\(sheet.count) bytes), cues in \(vtt), "
                    + "\(DecimalText.format((seconds * 1000).rounded() / 1000)) s"
                    + (received.map { ", \($0) bytes received" } ?? ""))
        }
    }

    /// How the track names the sprite: its file name when both are in one folder, its path as given otherwise.
    static func spriteURL(_ sprite: String, from vtt: String) -> String {
        func folder(_ path: String) -> Substring { path.lastIndex(of: "/").map { path[..<$0] } ?? "" }
        guard folder(sprite) == folder(vtt) else { return sprite }
        return sprite.lastIndex(of: "/").map { String(sprite[sprite.index(after: $0)...]) } ?? sprite
    }
}
