/// Sample manifests the parser tests read (and the fuzz test mutates).
enum ManifestSamples {
    static let masterURL = "https://cdn.example.com/show/master.m3u8"
    static let mediaURL = "https://cdn.example.com/show/v1/index.m3u8"
    static let mpdURL = "https://cdn.example.com/show/manifest.mpd"

    static let master = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English, stereo",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,\
        URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="audio/fr.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=2000000,RESOLUTION=1280x720,\
        CODECS="avc1.64001f,mp4a.40.2",FRAME-RATE=29.970,AUDIO="aac",SUBTITLES="subs"
        v720/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aac"
        v360/index.m3u8

        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="iframes.m3u8"
        # a comment
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",AUDIO="aac"
        https://other.example.com/v1080/index.m3u8
        """

    static let media = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:100
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
        #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1",IV=0x000102030405060708090A0B0C0D0E0F
        #EXTINF:6.006,first
        #EXT-X-BYTERANGE:1000@720
        media.mp4
        #EXTINF:5.5,
        #EXT-X-BYTERANGE:2000
        media.mp4
        #EXT-X-KEY:METHOD=AES-128,URI="../keys/k2"
        #EXT-X-DISCONTINUITY
        #EXTINF:4
        other.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:3.25,
        clear.ts
        #EXT-X-ENDLIST
        """

    static let mpd = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1M0.5S"
             profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S">
          <BaseURL>https://media.example.com/show/</BaseURL>
          <Period id="p0">
            <BaseURL>p0/</BaseURL>
            <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
              <BaseURL>video/</BaseURL>
              <SegmentTemplate media="$RepresentationID$/seg-$Number%05d$.m4s" initialization="$RepresentationID$/init.mp4"
                               startNumber="1" timescale="90000" duration="360000"/>
              <Representation id="v720" bandwidth="2400000" width="1280" height="720" codecs="avc1.64001f"
                              frameRate="30000/1001"/>
              <Representation id="v360" bandwidth="700000" width="640" height="360" codecs="avc1.42c01e"
                              frameRate="25"/>
            </AdaptationSet>
            <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">
              <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
              <SegmentTemplate media="audio/$Time$.m4s" initialization="audio/init-$Bandwidth$.mp4" timescale="48000">
                <SegmentTimeline>
                  <S t="0" d="96000" r="2"/>
                  <S d="48000" r="-1"/>
                </SegmentTimeline>
              </SegmentTemplate>
              <Representation id="a1" bandwidth="128000" codecs="mp4a.40.2"/>
            </AdaptationSet>
            <AdaptationSet mimeType="application/ttml+xml" lang="fr">
              <Representation id="t1" bandwidth="1000">
                <BaseURL>subs/fr.xml</BaseURL>
                <SegmentList duration="60500" timescale="1000">
                  <SegmentURL media="fr-1.xml"/>
                </SegmentList>
              </Representation>
            </AdaptationSet>
          </Period>
        </MPD>
        """
}
