import PlayctlCLI
import MediaIO
let args = CommandLine.arguments
do {
  let r = try VideoFrameReader(url: args[2])
  if args[1] == "frames" {
    var out = ""
    while let f = try r.nextFrame() { out += String(format6(f.time.seconds)) + " " + f.md5() + "\n" }
    print(out, terminator: "")
  } else {
    let t = Double(args[3])!
    let l = try r.seek(to: MediaTime(seconds: t), mode: args.count > 4 ? .keyframe : .exact)
    print(format6(l.frame!.time.seconds), l.frame!.md5(), l.statistics)
  }
} catch { print("error: \(error)") }
func format6(_ d: Double) -> String { let v = Int64((d * 1e6).rounded()); return "\(v / 1_000_000).\(String(v % 1_000_000).leftPad6)" }
extension String { var leftPad6: String { String(repeating: "0", count: max(0, 6 - count)) + self } }
