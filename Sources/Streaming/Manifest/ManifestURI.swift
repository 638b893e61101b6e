import Foundation
import MediaCore

/// Resolves a URI found in a manifest against the manifest's URL and applies the engine's policy: from a remote
/// (http or https) manifest only http(s) URIs are followed, never `file:`, `concat:`, `data:` or anything
/// libavformat would open itself (the class of CVE-2016-1897/1898); a local manifest may name local files and
/// http(s).
public enum ManifestURI {
    /// The absolute URL of `reference` as found in the manifest at `base`.
    /// - Throws: `.refusedByPolicy` naming the URI when the policy refuses it; `.malformedManifest` when it cannot
    ///   be resolved.
    public static func resolve(_ reference: String, against base: String) throws(MediaError) -> String {
        try resolve(reference, against: base, in: base)
    }

    /// The absolute URL of `reference` as found against `base` in the manifest at `manifest` (a DASH BaseURL is a
    /// base of its own inside the MPD).
    /// - Throws: as ``resolve(_:against:)``, naming `manifest`.
    public static func resolve(
        _ reference: String, against base: String, in manifest: String
    ) throws(MediaError) -> String {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        let baseIsRemote = isRemote(base)
        let resolved: String
        if let scheme = scheme(of: trimmed) {
            resolved = trimmed
            if baseIsRemote && scheme != "http" && scheme != "https" {
                throw MediaError(
                    .refusedByPolicy, url: manifest, operation: .open,
                    reason: "the manifest names '\(trimmed)': a remote manifest may name only http(s) URIs")
            }
            if !baseIsRemote && scheme != "http" && scheme != "https" && scheme != "file" {
                throw MediaError(
                    .refusedByPolicy, url: manifest, operation: .open,
                    reason: "the manifest names '\(trimmed)': only files and http(s) URIs are followed")
            }
            // `https:/x` or `http:x` has the scheme but no host: what the engine would not fetch as remote.
            if (scheme == "http" || scheme == "https") && !isRemote(trimmed) {
                throw MediaError(
                    .malformedManifest, url: manifest, operation: .probe,
                    reason: "the manifest names '\(trimmed)': an http(s) URI without '//' and a host")
            }
        } else if baseIsRemote {
            // Foundation may answer a reference it cannot resolve with the reference itself (`:x` stays `:x`): what
            // comes back must be an http(s) URL like its base.
            guard let baseURL = URL(string: base), let url = URL(string: trimmed, relativeTo: baseURL),
                isRemote(url.absoluteString)
            else {
                throw MediaError(
                    .malformedManifest, url: manifest, operation: .probe,
                    reason: "cannot resolve URI '\(trimmed)' against '\(base)'")
            }
            resolved = url.absoluteString
        } else {
            // A local manifest: relative to its folder.
            let path = base.hasPrefix("file://") ? String(base.dropFirst(7)) : base
            if trimmed.hasPrefix("/") {
                resolved = trimmed
            } else {
                let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
                    separator: "/")
                resolved = folder.isEmpty ? trimmed : folder + "/" + trimmed
            }
        }
        return resolved
    }

    /// Whether `url` names an HLS playlist or a DASH manifest, by its path's extension (`.m3u8`, `.m3u`, `.mpd`;
    /// a query or fragment after it is ignored).
    public static func isManifest(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let clean = (path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .lowercased()
        return clean.hasSuffix(".m3u8") || clean.hasSuffix(".m3u") || clean.hasSuffix(".mpd")
    }

    /// Whether `url` is fetched over the network (http or https).
    public static func isRemote(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The scheme of an absolute URI (lowercased), or nil for a relative reference. A single letter before the
    /// colon is not a scheme on its own here (it never is in a manifest), nor is anything with a slash before it.
    static func scheme(of uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let candidate = uri[..<colon]
        guard let first = candidate.first, first.isLetter,
            candidate.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        return candidate.lowercased()
    }
}
