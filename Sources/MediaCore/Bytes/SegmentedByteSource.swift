/// A source that presents media cut into segments (an HLS or DASH rendition) as one byte stream: a demuxer reads
/// it as one file, and seeks by asking it to start over at the segment that holds a time, then opening the stream
/// anew from there (the container's own byte seeks cannot cross segments it has not read).
///
/// Each segment starts with a keyframe, and the timestamps in its bytes are on the whole presentation's timeline,
/// so a demuxer reopened at a segment goes on with the same streams and times.
public protocol SegmentedByteSource: ByteSource {
    /// Makes the next read the first byte of the segment that holds `seconds` (from the presentation's start),
    /// preceded by its initialization section when it has one; returns where that segment starts, in seconds.
    /// - Throws: `MediaError` when the segment list cannot be had (a playlist that fails to load).
    func reposition(toSeconds seconds: Double) throws(MediaError) -> Double
    /// The presentation's duration in seconds as its manifest says, or nil for a live one.
    var presentationDuration: Double? { get }
    /// After a read returned 0: whether that was not the end but a variant change that needs a new header (an fMP4
    /// rendition's initialization section, which a demuxer reads only when it opens). When true, the next read is
    /// the new variant's initialization section, then its segments: the demuxer opens the stream anew and goes on.
    func continueAfterBoundary() -> Bool
}
