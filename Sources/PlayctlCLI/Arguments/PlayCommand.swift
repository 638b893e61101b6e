import CommandLineKit

/// `playctl play FILE [--rate R] [--seek SEC[@AT]]... [--until SEC] [--frames N] [--untimed] ...`: what it accepts,
/// given to the run as `PlayOptions` and, with `--pip` or `--swap`, a `PictureInPictureScenario`. It runs in
/// `Commands/Play/PlaySession.swift`.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "play",
        abstract: "Play a media file headlessly and report what the player does.",
        discussion: """
            Plays the file through the Playback engine, with frames released to a null video output when the \
            clock reaches them, until the end of the file or --until. Seeks, picture in picture and item swaps \
            are scheduled from the command line, so one invocation is one reproducible scenario.

            Every scheduled time (--seek SEC@AT, --until, --swap-at) is on one timeline: seconds since playback \
            started, on the player's clock (real time, or the virtual clock with --untimed), whatever the media \
            time does meanwhile.

            With --untimed the clock is virtual and advances as fast as frames are decoded, so a scenario runs at \
            full speed and gives the same event trace on every run.

            --audio-lang and --sub-lang choose tracks by language when the item loads (as a player's media \
            selection criteria); subtitles shown are printed as item.cue events (start, end, text) when they \
            appear. The tracks chosen are printed as item.mediaSelection events. Timed metadata (ID3 in MPEG-TS \
            and HLS; MP4 emsg boxes and mebx tracks) is printed as item.timedMetadata events (start, frames; \
            emsg, items) when the playhead reaches it.

            With --audio pulse the audio is heard through the sound server and the video follows the device's \
            clock; the output in use is printed as a player.audioOutput event (with an error, and playback going \
            on silently, when the server is missing or goes away), and the summary gives the audio/video offset \
            (avsync: the audio clock minus the time of the frame on screen, as mpv's). --audio-device names the \
            sink (pactl list short sinks lists them).

            An http(s) URL ending in .m3u8 or .mpd plays as an HLS or DASH presentation: a variant is chosen for \
            each segment from the bandwidth measured, within --max-bitrate and --max-resolution, and each choice is \
            printed as an item.variantSwitch event (from, to, the segment, the reason, the estimate).
            """,
        examples: [
            UsageExample("playctl play clip.mp4 --untimed --json", "Play clip.mp4 at full speed and print its events."),
            UsageExample(
                "playctl play clip.mp4 --seek 3 --seek 1@2 --until 4",
                "Seek to 3 s at once, to 1 s two seconds later, and stop four seconds after the start (at 3 s)."),
            UsageExample(
                "playctl play clip.mp4 --scrub 0.5-5.5@0.5/1 --json",
                "Drag the seek bar from 0.5 s to 5.5 s over one second, half a second in; print metric.scrub."),
            UsageExample(
                "playctl play clip.mp4 --frames 1",
                "Open clip.mp4, show its first frame and exit (playctl-bench run --network times this on a URL)."),
            UsageExample(
                "playctl play a.mp4 --pip --swap b.mp4 --swap-at 3 --swap-mode source --restore",
                "Start picture in picture, swap to b.mp4 after 3 seconds, then restore."),
            UsageExample(
                "playctl play film.mkv --audio-lang fra --sub-lang fra --untimed",
                "Play the French audio of film.mkv with its French subtitles, printing each cue as it shows."),
            UsageExample(
                "playctl play film.mp4 --sub-file film.vtt --untimed --json",
                "Show the cues of film.vtt over film.mp4, as item.cue events in JSON Lines."),
            UsageExample(
                "playctl play clip.mp4 --audio pulse --until 3 --json",
                "Play 3 s of clip.mp4 aloud through PulseAudio, the video on its clock; the summary gives avsync."),
            UsageExample(
                "playctl play http://127.0.0.1:18000/ladder/hls-ts/master.m3u8 --max-bitrate 1200000 --untimed --json",
                "Play an HLS ladder at full speed in variants of 1.2 Mbit/s at most; print each item.variantSwitch."),
        ])

    static var constraints: [OptionRule<Self>] {
        [
            .requires(\.$swapAt, \.$swap), .requires(\.$swapMode, \.$swap),
            .requires(\.cache.$size, \.cache.$directory),
            .requires(\.$audioDevice, \.$audioOutput), .atMostOne(\.$noAudio, \.$audioOutput),
            .atMostOne(\.$frames, \.$pip), .atMostOne(\.$frames, \.$swap), .atMostOne(\.$scrub, \.$untimed),
            .atMostOne(\.$scrub, \.$pip), .atMostOne(\.$scrub, \.$swap),
        ]
    }

    @Argument(name: "FILE", help: PlayctlCommands.fileHelp) var path: String
    @Option(
        placeholder: "R", help: "Playback rate: 1 is normal speed, 2 twice as fast (default 1).",
        check: .range(0.25...4, "a rate from 0.25 to 4"))
    var rate: Double = 1
    /// `--time-pitch`: how the audio plays at rates other than 1.
    @Option(
        name: "time-pitch", placeholder: "ALGORITHM",
        help: """
            How the audio plays at rates other than 1: time-domain (the default) or spectral keep the pitch, \
            varispeed lets it follow the rate (an octave up at 2), as AVFoundation's audioTimePitchAlgorithm.
            """)
    var timePitch: PlayOptions.TimePitchChoice = .timeDomain
    @Option(
        placeholder: "SEC[@AT]",
        help: """
            Seek exactly to SEC seconds, AT seconds after playback starts (at once when @AT is left out). \
            Repeat for several seeks.
            """)
    var seek: [PlayOptions.ScheduledSeek]
    @Option(
        placeholder: "FROM-TO@AT/DURATION",
        help: """
            Replay a drag of the seek bar: AT seconds after playback starts, scrub from FROM to TO seconds over \
            DURATION seconds (60 positions; keyframes while dragging, the exact frame at the end), then print \
            metric.scrub. Real time only (not with --untimed). Repeat for several drags.
            """)
    var scrub: [PlayOptions.ScheduledScrub]
    @Option(
        placeholder: "SEC",
        help: "Stop SEC seconds after playback starts, wherever the media time is (seeks do not move it).",
        check: .atLeast(0, "seconds, 0 or more"))
    var until: Double?
    /// `--frames N`: stop once N video frames have been shown.
    @Option(
        placeholder: "N",
        help: "Stop once N video frames have been shown (as mpv's --frames does); 1 times the first frame.",
        check: .atLeast(1, "a positive integer"))
    var frames: Int?
    @Flag(help: "Use a virtual clock that advances as fast as frames are decoded.") var untimed: Bool
    @Flag(help: "Ignore the audio streams.") var noAudio: Bool
    /// `--audio`: where the audio plays.
    @Option(
        name: "audio",
        help: """
            Where the audio plays: null (the default: consumed at the clock's pace, not heard) or pulse (the \
            PulseAudio server, or PipeWire's: PULSE_SERVER, else the user's; its device clock then leads).
            """)
    var audioOutput: PlayOptions.AudioOutputChoice = .null
    /// `--audio-device`: the sink (nil: the server's default).
    @Option(
        placeholder: "NAME", help: "With --audio pulse: play to the sink NAME (default: the server's default sink).")
    var audioDevice: String?
    @Option(
        name: "audio-lang", placeholder: "L",
        help: "Play the audio track in language L (eng, fr, de-CH, ...: as mpv's --alang) when the file has one.")
    var audioLanguage: String?
    @Option(
        name: "sub-lang", placeholder: "L",
        help: "Show the subtitles in language L (a track, an HLS subtitle rendition, a --sub-file), printing each cue.")
    var subtitleLanguage: String?
    @Option(
        name: "sub-file", placeholder: "F",
        help: "Add the subtitle file F (.srt, .vtt, .ass); the first is shown unless --sub-lang picks another.")
    var subtitleFiles: [String]
    @Flag(help: "Print player events as JSON Lines on standard output.") var json: Bool
    @Flag(help: "Start picture in picture on the simulated system host once playback starts.") var pip: Bool
    @Option(placeholder: "B", help: "Swap the content to media file B during playback.") var swap: String?
    @Option(
        placeholder: "SEC", help: "When to swap, in seconds after playback starts (default 0).",
        check: .atLeast(0, "seconds, 0 or more"))
    var swapAt: Double?
    @Option(help: "source: give picture in picture a new player for B; item: replace the current player's item.")
    var swapMode: PictureInPictureScenario.SwapMode = .source
    @Flag(help: "Restore from picture in picture to the inline view before stopping.") var restore: Bool
    @Option(placeholder: "FILE", help: "Write playback metrics as JSON Lines to FILE.") var metricsOut: String?
    @Option(
        name: "timeline", placeholder: "OUT.svg",
        help: "At the end, draw the run's timeline (as playctl report does) to OUT.svg.")
    var timelinePath: String?
    var cache = CacheOptions()
    /// `--header`: HTTP header fields sent for an http(s) FILE.
    var request = RequestOptions()
    /// `--max-bitrate`, `--max-resolution`: the variant limits of an HLS or DASH FILE.
    var limits = VariantLimitOptions()
    @Option(name: "decryption-key", placeholder: "HEX", help: PlayctlCommands.decryptionKeyHelp)
    var key: DecryptionKey?

    /// What to play and how.
    var options: PlayOptions {
        PlayOptions(
            path: path, rate: Float(rate), timePitch: timePitch, seeks: seek, scrubs: scrub, until: until,
            frames: frames, untimed: untimed,
            audio: !noAudio, audioOutput: audioOutput, audioDevice: audioDevice, json: json, metricsPath: metricsOut,
            cache: cache, headers: request.headers, decryptionKey: key?.hex, audioLanguage: audioLanguage,
            subtitleLanguage: subtitleLanguage,
            subtitleFiles: subtitleFiles, limits: limits)
    }

    /// With `--pip` or `--swap`: the Picture in Picture scenario.
    var pictureInPicture: PictureInPictureScenario? {
        guard pip || swap != nil else { return nil }
        return PictureInPictureScenario(
            options: options, pip: pip, swapPath: swap, swapAt: swapAt, swapMode: swapMode, restore: restore)
    }
}
