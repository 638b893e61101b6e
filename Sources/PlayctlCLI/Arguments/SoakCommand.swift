import CommandLineKit

/// `playctl soak [--swaps N] [--seeks N] [--media DIR] [--json]`: what it accepts. It runs in
/// `Commands/Soak/SoakCommand+Run.swift`.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "soak",
        abstract: "Swap items and seek many times in one player; check that nothing leaks.",
        discussion: """
            One player under a manual clock takes --swaps new items, cycling through the clips in --media, and \
            makes --seeks seeks to random points (exact or to a keyframe; the same points on every run), moving \
            the clock a little after each step. With the player emptied, resident memory (from /proc/self/statm, \
            after handing free heap memory back, with glibc's malloc arenas capped at 2 and its mmap threshold \
            fixed at 128 KB) is measured after the first 10% of the steps (at least one pass over the clips), \
            every eighth of the steps after that and at the end; then the player is invalidated and open file \
            descriptors and threads are counted again. The growth is the least resident memory of the second half \
            of those checkpoints minus the least of the first half (a leak raises the floor; one reading moves \
            by up to 2 MB with the heap's fragmentation).

            Exits 1 when resident memory grew by more than 2 MB after the warm-up, when descriptors or threads \
            are not back to where they started, or when an item fails to load.
            """,
        examples: [
            UsageExample("playctl soak --swaps 200 --seeks 200 --json", "A short run over the clips in ./Media; JSON.")
        ])

    /// Swaps and seeks when not given.
    static let defaultCount = 1000

    @Option(
        placeholder: "N", help: "Items to swap in with replaceCurrentItem (default 1000).",
        check: .range(0...10_000_000, "a count from 0 to 10000000"))
    var swaps: Int = SoakCommand.defaultCount
    @Option(
        placeholder: "N", help: "Seeks to make (default 1000).",
        check: .range(0...10_000_000, "a count from 0 to 10000000"))
    var seeks: Int = SoakCommand.defaultCount
    @Option(name: "media", placeholder: "DIR", help: "The folder of clips to swap between (default Media).")
    var mediaDirectory: String = "Media"
    @Flag(name: "json", help: "Print the figures as one JSON object instead of text.") var printsJSON: Bool
}
