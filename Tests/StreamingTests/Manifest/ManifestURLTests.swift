import Streaming
import Testing

@Suite("ManifestURI.isManifest: HLS and DASH by the path's extension")
struct ManifestURLTests {
    @Test(arguments: [
        "http://h/a/master.m3u8", "https://h/live.M3U8", "http://h/list.m3u", "http://h/manifest.mpd",
        "http://h/master.m3u8?token=1.mp4", "http://h/manifest.mpd#t=3", "/local/master.m3u8",
    ])
    func manifests(url: String) {
        #expect(ManifestURI.isManifest(url))
    }

    @Test(arguments: [
        "http://h/a.mp4", "http://h/a.mp4?list=x.m3u8", "http://h/a.ts#x.mpd", "http://h/m3u8", "http://h/a.m3u8.mp4",
        "", "?.m3u8",
    ])
    func otherMedia(url: String) {
        #expect(!ManifestURI.isManifest(url))
    }
}
