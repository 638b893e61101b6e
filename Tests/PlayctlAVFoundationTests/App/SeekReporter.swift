import AVFoundation
import AVKit
import CoreMedia

/// App code written for iOS 18: reports every seek of an item through AVMetrics.
actor SeekReporter {
    private(set) var reported: [String] = []
    private var task: Task<Void, Never>?

    func watch(_ item: AVPlayerItem) {
        let metrics = item.metrics(forType: AVMetricPlayerItemSeekEvent.self)
        task = Task { [weak self] in
            for await event in metrics {
                await self?.add(String(format: "seek reported at media time %.3f", event.mediaTime.seconds))
            }
        }
    }

    private func add(_ line: String) { reported.append(line) }

    func stop() { task?.cancel() }
}
