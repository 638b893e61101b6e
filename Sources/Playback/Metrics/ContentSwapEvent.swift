import Foundation

/// How the content shown was swapped: what metrics record and what a Picture in Picture controller reports.
public enum ContentSwapMode: String, Sendable, Hashable, CaseIterable {
    /// A new player (and layer) took over: the new content was prepared by another player.
    case source
    /// The same player replaced its current item.
    case item
}

/// The content shown was swapped from one item to another, and the new item's first frame is on screen.
/// Recorded with ``MetricsCollector/recordContentSwap(from:to:mode:)``.
public struct ContentSwapEvent: MetricEvent, Equatable {
    public static let name = "metric.contentSwap"
    public let context: MetricContext
    /// The file name of the item shown before; nil for none.
    public let from: String?
    /// The file name of the item shown now.
    public let to: String?
    /// Whether a new player took over (`source`) or the player replaced its item (`item`).
    public let mode: ContentSwapMode
    /// Seconds of clock time from the swap to the new item's first frame (0 when it was already on screen).
    public let latency: Double
    /// The same in real time, whatever the clock.
    public let elapsedTime: Double

    public init(
        context: MetricContext, from: String?, to: String?, mode: ContentSwapMode, latency: Double,
        elapsedTime: Double? = nil
    ) {
        self.elapsedTime = elapsedTime ?? latency
        self.context = context
        self.from = from
        self.to = to
        self.mode = mode
        self.latency = latency
    }

    public var description: String {
        "contentSwap \(from ?? "nil") -> \(to ?? "nil") \(mode.rawValue) after \(fmt(latency))"
    }
}
