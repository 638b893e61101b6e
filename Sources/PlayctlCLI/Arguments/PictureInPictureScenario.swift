import CommandLineKit

/// `playctl play A --pip [--swap B] [--swap-at SEC] [--swap-mode source|item] [--restore]`: plays A, starts Picture
/// in Picture on the simulated system host as soon as A's first frame is shown, swaps to B at `--swap-at` (a new
/// content source, or `replaceCurrentItem`), plays B to its end, then closes the window (or restores). It runs in
/// `Commands/Play/ScenarioRun.swift`.
///
/// The scenario runs on a manual clock that this command advances in steps of 1/150 s, paced to real time (as
/// fast as possible with `--untimed`): player and PiP events then come in one deterministic order.
struct PictureInPictureScenario: Sendable {
    /// `--swap-mode`: how B replaces A.
    enum SwapMode: String, CaseIterable, ArgumentValue {
        /// Picture in Picture gets a new player for B (`swapContentSource`).
        case source
        /// The current player's item is replaced (`replaceCurrentItem`).
        case item
    }

    let options: PlayOptions
    let pip: Bool
    let swapPath: String?
    let swapAt: Double?
    let swapMode: SwapMode
    let restore: Bool
}
