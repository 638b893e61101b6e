#!/usr/bin/env python3
"""python-ctypes: a feed of short videos and images through playctl's C API (0.2), from ctypes alone.

Makes a feed of ten entries on the manual clock, scrolls through them one by one (1.5 s of virtual time on each),
prints its events (the `playctl feed --json` objects the library hands over) and its summary, and exits non-zero if
anything is off.  python3 playctl_feed.py ../../Media
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
    return lib


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
    print(f"playctl_feed: {len(paths)} items, {len(events)} events, first frame p95 "
          f"{summary['firstFrame']['p95']:.3f} s, {summary['stalls']} stalls: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
