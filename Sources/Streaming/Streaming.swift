/// Adaptive streaming over `Loading`: HLS and DASH manifests as one model of renditions and segments, the segments
/// of a rendition as one byte stream that `MediaIO` demuxes, and the rendition choice (ABR) as a value machine.
///
/// Every playlist, key and segment is a fetch of `Loading` (its byte cache, link priority and typed errors); a
/// remote manifest may name only http(s) URIs. See docs/streaming.md.
public enum Streaming {}
