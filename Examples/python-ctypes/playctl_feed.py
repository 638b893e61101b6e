#!/usr/bin/env python3
"""python-ctypes: a feed of short videos and images through playctl's C API (0.2), from ctypes alone.

Makes a feed of ten entries on the manual clock, scrolls through them one by one (1.5 s of virtual time on each),
prints its events (the `playctl feed --json` objects the library hands over) and its summary, and exits non-zero if
anything is off. With API 0.3, then a feed of two entries with what is known of them (playctl_feed_entry): one
with two renditions and a poster picture, one whose size is over the cellular cap, tapped to play.
  python3 playctl_feed.py ../../Media
The library is PLAYCTL_LIBRARY if set, else libplayctl.so.0 in `pkg-config --variable=libdir playctl`.
"""
import ctypes
import json
import os
import subprocess
import sys

# The parts of playctl.h this program uses (values and layouts as the header declares them).
PLAYCTL_CLOCK_MANUAL = 1
PLAYCTL_AUDIO_NONE = 1
PLAYCTL_NETWORK_CELLULAR = 1
EVENT_NONE, EVENT_FEED = 0, 40
ENTRIES = ["a.mp4", "still.jpg", "b.mp4", "c.webm", "rotated.mp4", "offset.ts", "b.mp4", "a.mp4", "still.jpg",
           "c.webm"]


class FeedConfig(ctypes.Structure):
    _fields_ = [("clock", ctypes.c_int), ("audio", ctypes.c_int), ("pool_size", ctypes.c_int),
                ("network", ctypes.c_int), ("poster_width", ctypes.c_int), ("poster_height", ctypes.c_int),
                ("reserved", ctypes.c_void_p * 8)]


class Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("error", ctypes.c_int), ("request_id", ctypes.c_uint64),
                ("time", ctypes.c_double), ("clock_time", ctypes.c_double), ("item_status", ctypes.c_int),
                ("time_control_status", ctypes.c_int), ("waiting_reason", ctypes.c_int),
                ("finished", ctypes.c_int), ("landed", ctypes.c_double), ("duration", ctypes.c_double),
                ("rate", ctypes.c_double), ("value", ctypes.c_int64), ("item", ctypes.c_char_p),
                ("message", ctypes.c_char_p), ("pip", ctypes.c_void_p),
                # Since API 0.2.
                ("name", ctypes.c_char_p), ("json", ctypes.c_char_p), ("index", ctypes.c_int64),
                ("latency", ctypes.c_double), ("width", ctypes.c_int), ("height", ctypes.c_int)]


class FeedRendition(ctypes.Structure):  # since API 0.3
    _fields_ = [("url", ctypes.c_char_p), ("bitrate", ctypes.c_int64), ("width", ctypes.c_int),
                ("height", ctypes.c_int), ("byte_size", ctypes.c_int64), ("reserved", ctypes.c_void_p * 4)]


class FeedEntry(ctypes.Structure):  # since API 0.3
    _fields_ = [("url", ctypes.c_char_p), ("kind", ctypes.c_int), ("byte_size", ctypes.c_int64),
                ("duration", ctypes.c_double), ("poster", ctypes.c_char_p),
                ("headers", ctypes.POINTER(ctypes.c_char_p)), ("header_count", ctypes.c_size_t),
                ("renditions", ctypes.POINTER(FeedRendition)), ("rendition_count", ctypes.c_size_t),
                ("reserved", ctypes.c_void_p * 8)]


def load_library():
    path = os.environ.get("PLAYCTL_LIBRARY")
    if not path:
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "playctl"], check=True,
                                    capture_output=True, text=True).stdout.strip()
            path = os.path.join(libdir, "libplayctl.so.0")
        except (OSError, subprocess.CalledProcessError):
            path = "libplayctl.so.0"
    lib = ctypes.CDLL(path)
    feed = ctypes.c_void_p
    for name, restype, argtypes in [
        ("playctl_api_version", ctypes.c_uint32, []),
        ("playctl_feed_create", feed, [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_int),
                                       ctypes.c_size_t, ctypes.POINTER(FeedConfig)]),
        ("playctl_feed_destroy", None, [feed]),
        ("playctl_feed_scroll", ctypes.c_int, [feed, ctypes.c_size_t, ctypes.c_double]),
        ("playctl_feed_clock_advance", ctypes.c_int, [feed, ctypes.c_double]),
        ("playctl_feed_wait_event", ctypes.POINTER(Event), [feed, ctypes.c_double]),
        ("playctl_feed_summary", ctypes.c_int, [feed, ctypes.c_char_p, ctypes.c_size_t]),
    ]:
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    if lib.playctl_api_version() & 0xffff >= 3:
        lib.playctl_feed_create_entries.restype = feed
        lib.playctl_feed_create_entries.argtypes = [ctypes.POINTER(FeedEntry), ctypes.c_size_t,
                                                    ctypes.POINTER(FeedConfig)]
        lib.playctl_feed_play.restype = ctypes.c_int
        lib.playctl_feed_play.argtypes = [feed, ctypes.c_size_t]
    return lib


def summary_of(lib, feed):
    size = lib.playctl_feed_summary(feed, None, 0)
    text = ctypes.create_string_buffer(size + 1)
    lib.playctl_feed_summary(feed, text, len(text))
    return json.loads(text.value.decode())


def feed_entries(lib, folder, expect):
    """API 0.3: two entries with what is known of them, on a cellular link; returns the line to print."""
    path = lambda name: os.path.abspath(os.path.join(folder, name)).encode()
    # The second copy declares 90 Mbit/s: the cellular link's 2 Mbit/s cap leaves the first.
    copies = (FeedRendition * 2)(FeedRendition(url=path("b.mp4"), bitrate=400_000, width=640, height=360),
                                 FeedRendition(url=path("a.mp4"), bitrate=90_000_000))
    entries = (FeedEntry * 2)(FeedEntry(renditions=copies, rendition_count=2, duration=2, poster=path("still.jpg")),
                              FeedEntry(url=path("a.mp4"), byte_size=40 << 20))
    config = FeedConfig(clock=PLAYCTL_CLOCK_MANUAL, audio=PLAYCTL_AUDIO_NONE, network=PLAYCTL_NETWORK_CELLULAR)
    feed = lib.playctl_feed_create_entries(entries, 2, ctypes.byref(config))
    expect(bool(feed), "the feed of entries was made")
    if not feed:
        return "playctl_feed entries: FAILED"
    seen = {}

    def step(seconds):
        lib.playctl_feed_clock_advance(feed, seconds)
        while (event := lib.playctl_feed_wait_event(feed, 0).contents).type != EVENT_NONE:
            if event.type == EVENT_FEED:
                seen.setdefault((event.name.decode(), event.index), (event.value, event.width, event.height))

    lib.playctl_feed_scroll(feed, 0, 0)
    step(1.0)
    lib.playctl_feed_scroll(feed, 1, 1)
    step(1.0)
    expect(seen.get(("feed.rendition", 0)) == (400_000, 640, 360), "item 0 plays its 400 kbit/s 640x360 copy")
    expect(seen.get(("feed.capped", 1), (0,))[0] == 40 << 20, "item 1 is capped (40 MiB over 20 MiB)")
    expect(("feed.firstFrame", 1) not in seen, "nothing of the capped item plays before the tap")
    expect(lib.playctl_feed_play(feed, 1) == 0, "the tap")
    step(1.0)
    expect(("feed.firstFrame", 1) in seen, "the tapped item shows its first frame")
    summary = summary_of(lib, feed)
    expect(summary["cappedItems"] == 1 and summary["cappedItemsTapped"] == 1, "the summary counts it, tapped")
    lib.playctl_feed_destroy(feed)
    return (f"playctl_feed entries: rendition {seen.get(('feed.rendition', 0))}, capped items "
            f"{summary['cappedItems']}, tapped {summary['cappedItemsTapped']}")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "../../Media"
    lib = load_library()
    failures = []

    def expect(condition, what):
        if not condition:
            print(f"playctl_feed: FAILED: {what}", file=sys.stderr)
            failures.append(what)

    version = lib.playctl_api_version()
    expect(version >> 16 == 0 and version & 0xffff >= 2, "the library has the feed API (0.2)")
    paths = [os.path.abspath(os.path.join(folder, name)).encode() for name in ENTRIES]
    urls = (ctypes.c_char_p * len(paths))(*paths)
    config = FeedConfig(clock=PLAYCTL_CLOCK_MANUAL, audio=PLAYCTL_AUDIO_NONE)
    feed = lib.playctl_feed_create(urls, None, len(paths), ctypes.byref(config))
    if not feed:
        print("playctl_feed: the feed could not be made", file=sys.stderr)
        return 1

    events = []

    def drain():
        while True:
            event = lib.playctl_feed_wait_event(feed, 0).contents
            if event.type == EVENT_NONE:
                return
            if event.type != EVENT_FEED:
                continue
            name, index, latency = event.name.decode(), event.index, event.latency
            line = f"{event.time:7.3f}  {name:16} item {index}"
            if name in ("feed.firstFrame", "feed.started"):
                line += f"  latency {latency:.3f} s"
            print(line)
            events.append(json.loads(event.json))

    for index in range(len(paths)):
        expect(lib.playctl_feed_scroll(feed, index, 0) == 0, f"scroll to {index}")
        for _ in range(15):
            lib.playctl_feed_clock_advance(feed, 0.1)
            drain()

    size = lib.playctl_feed_summary(feed, None, 0)
    text = ctypes.create_string_buffer(size + 1)
    lib.playctl_feed_summary(feed, text, len(text))
    summary = json.loads(text.value.decode())
    print(text.value.decode())
    started = {event["index"] for event in events if event["event"] == "feed.started"}
    framed = {event["index"] for event in events if event["event"] == "feed.firstFrame"}
    videos = {index for index, name in enumerate(ENTRIES) if not name.endswith(".jpg")}
    expect(started == set(range(len(paths))), "every item started")
    expect(videos <= framed, "every video showed its first frame")
    expect(summary["event"] == "feed.summary" and summary["swipes"] == len(paths), "the summary counts the swipes")
    expect(summary["activations"] == len(paths) and summary["failures"] == 0, "ten items played, none failed")
    lib.playctl_feed_destroy(feed)
    if version & 0xffff >= 3:
        print(feed_entries(lib, folder, expect))
    print(f"playctl_feed: {len(paths)} items, {len(events)} events, first frame p95 "
          f"{summary['firstFrame']['p95']:.3f} s, {summary['stalls']} stalls: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
