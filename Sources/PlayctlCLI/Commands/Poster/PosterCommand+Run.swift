import Foundation
import MediaIO
import Playback
import PlayctlOutput
import Posters

/// `playctl poster`: one poster written as a PNG, or a batch through one shared pipeline with its figures.
extension PosterCommand: PlayctlCommand {
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let loading = try MediaLocation.loading(cache: cache)
        var configuration = PosterPipeline.Configuration()
        configuration.maximumConcurrentDecodes = concurrency
        // With --cache-dir, made posters are kept too (DIR/posters, 64 MB), for later runs.
        let disk = try media { () throws(MediaError) in
            try cache.directory.map { directory throws(MediaError) in
                try PosterDiskCache(directory: directory + "/posters")
            }
        }
        let pipeline = PosterPipeline(configuration: configuration, loading: loading, diskCache: disk)
        switch work {
        case .single(let source, let destination):
            let asked = request(source: source, time: time)
            let poster = try media { () throws(MediaError) in
                try AsyncWork.wait { () async throws(MediaError) in try await pipeline.poster(for: asked) }
            }
            let png = try media { () throws(MediaError) in try PNGEncoder.encode(poster.image, url: source) }
            try OutputFile.write(png, to: destination)
        case .batch(let list):
            let entries = try PosterBatch.read(list)
            try PosterBatch(entries: entries, pipeline: pipeline, output: output, json: printsJSON) { source, at in
                request(source: source, time: at ?? time)
            }.run()
        }
    }

    func request(source: String, time: Double?) -> PosterRequest {
        PosterRequest(
            source: source, time: time, exact: exact, width: size?.width, height: size?.height,
            fit: fit == .fill ? .fill : .fit, format: .rgba, priority: .visible)
    }
}
