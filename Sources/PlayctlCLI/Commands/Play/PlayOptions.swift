import CommandLineKit

/// The command line of `playctl play`, checked.
struct PlayOptions {
    /// `--seek SEC[@AT]`: seek exactly to `to` when the media time reaches `at` (at the start when nil).
    struct ScheduledSeek: Equatable {
        let to: Double
        let at: Double?
    }

    let path: String
    let rate: Float
    let seeks: [ScheduledSeek]
    let until: Double?
    let untimed: Bool
    let audio: Bool
    let json: Bool
    let metricsPath: String?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        path = arguments.positional("FILE") ?? ""
        do throws(UsageError) {
            let rate = try arguments.double("rate", default: 1)
            guard rate >= 0.25 && rate <= 4 else {
                throw arguments.invalidValue("rate", value: arguments.value("rate") ?? "", expected: "a rate from 0.25 to 4")
            }
            self.rate = Float(rate)
            until = try arguments.double("until")
            if let until, until < 0 {
                throw arguments.invalidValue("until", value: arguments.value("until") ?? "", expected: "seconds, 0 or more")
            }
            seeks = try arguments.values("seek").map { text throws(UsageError) in
                let parts = text.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count <= 2, let to = Double(parts[0]), to.isFinite, to >= 0 else {
                    throw arguments.invalidValue("seek", value: text, expected: "SEC or SEC@AT (seconds, 0 or more)")
                }
                var at: Double?
                if parts.count == 2 {
                    guard let value = Double(parts[1]), value.isFinite, value >= 0 else {
                        throw arguments.invalidValue("seek", value: text, expected: "SEC or SEC@AT (seconds, 0 or more)")
                    }
                    at = value > 0 ? value : nil
                }
                return ScheduledSeek(to: to, at: at)
            }
        } catch {
            throw .usage(error)
        }
        untimed = arguments.flag("untimed")
        audio = !arguments.flag("no-audio")
        json = arguments.flag("json")
        metricsPath = arguments.value("metrics-out")
    }
}
