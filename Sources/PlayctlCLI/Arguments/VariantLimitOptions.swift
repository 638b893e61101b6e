import CommandLineKit

/// `--max-bitrate BPS --max-resolution WxH`: the limits of the variant an HLS or DASH presentation plays (AVPlayer's
/// `preferredPeakBitRate` and `preferredMaximumResolution`), set on the item before it loads. No effect on a file
/// or a progressive URL. A group: the commands that read media hold one (`var limits = VariantLimitOptions()`).
struct VariantLimitOptions: ParsableArguments {
    /// The highest peak bit rate of a variant, in bits per second (nil: no limit).
    @Option(
        name: "max-bitrate", placeholder: "BPS",
        help: """
            HLS/DASH: choose only variants whose peak bit rate is at most BPS bits per second (the lowest when none \
            is).
            """,
        check: .atLeast(1, "a positive number of bits per second"))
    var peakBitRate: Int?

    /// The largest picture of a variant (nil: no limit).
    @Option(
        name: "max-resolution", placeholder: "WxH",
        help: "HLS/DASH: choose only variants at most W pixels wide and H high (the lowest when none is).")
    var maximumResolution: PosterCommand.Size?
}
