import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

@Suite("Did-you-mean suggestions")
struct SuggestionTests {
    @Test func distanceCountsEditsAndTranspositions() {
        func distance(_ a: String, _ b: String) -> Int { Suggestions.distance(Array(a), Array(b)) }
        #expect(distance("", "") == 0)
        #expect(distance("", "abc") == 3)
        #expect(distance("frame", "frame") == 0)
        #expect(distance("frmae", "frame") == 1)
        #expect(distance("fame", "frame") == 1)
        #expect(distance("framex", "frame") == 1)
        #expect(distance("frane", "frame") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("ab", "ba") == 1)
    }

    @Test func commandSuggestions() {
        let commands = PlayctlCommands.spec.commands.map(\.name)
        #expect(Suggestions.closest(to: "frmae", among: commands) == "frame")
        // One edit from both "frames" and "frame": ties go to the command declared first.
        #expect(Suggestions.closest(to: "frams", among: commands) == "frames")
        #expect(Suggestions.closest(to: "frams", among: ["frame", "frames"]) == "frame")
        #expect(Suggestions.closest(to: "paly", among: commands) == "play")
        #expect(Suggestions.closest(to: "saok", among: commands) == "soak")
        #expect(Suggestions.closest(to: "xyz", among: commands) == nil)
        #expect(Suggestions.closest(to: "p", among: commands) == nil)
    }

    @Test func optionSuggestions() {
        let play = PlayCommand.spec.options.map(\.longSpelling)
        #expect(Suggestions.closest(to: "--untime", among: play) == "--untimed")
        #expect(Suggestions.closest(to: "--noaudio", among: play) == "--no-audio")
        #expect(Suggestions.closest(to: "--swapmode", among: play) == "--swap-mode")
        #expect(Suggestions.closest(to: "--swap-a", among: play) == "--swap-at")
        #expect(Suggestions.closest(to: "--metrics", among: play) == "--metrics-out")
        #expect(Suggestions.closest(to: "--volume", among: play) == nil)
    }

    @Test func hugeInputsGetNoSuggestion() {
        let long = String(repeating: "frame", count: 1000)
        #expect(Suggestions.closest(to: long, among: ["frame"]) == nil)
    }
}
