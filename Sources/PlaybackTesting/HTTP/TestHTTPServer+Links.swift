import Foundation

extension TestHTTPServer {
    /// Serves the folder `target` of the served root (a ladder: `"ladder/hls-fmp4"`) again at `folder/<name>` for
    /// each of `names`, by symbolic links made now: each copy's requests are then its own lines in the access log,
    /// and two copies share no URL. Returns what removes the links (call it when done).
    public static func linkCopies(
        of target: String, as names: [String], in folder: String
    ) throws -> @Sendable () -> Void {
        let directory = localPath(folder)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let depth = folder.split(separator: "/").count
        let destination = String(repeating: "../", count: depth) + target
        var made: [String] = []
        let remove: @Sendable ([String]) -> Void = { paths in
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
        for name in names {
            let path = directory + "/" + name
            do {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
            } catch {
                remove(made)
                throw error
            }
            made.append(path)
        }
        let links = made
        return { remove(links) }
    }
}
