#!/usr/bin/env python3
"""python-ctypes: what c-minimal does, from Python's standard library alone (ctypes).

Plays a clip on playctl's manual clock, seeks exactly, plays to the end, prints every event, and exits non-zero if
anything is off.  python3 playctl_minimal.py ../../Media/a.mp4
The library is PLAYCTL_LIBRARY if set, else libplayctl.so.0 in `pkg-config --variable=libdir playctl`.
"""
import ctypes
import math
import os
import subprocess
import sys

# The parts of playctl.h this program uses (values and layouts as the header declares them).
PLAYCTL_CLOCK_MANUAL = 1
PLAYCTL_LOAD_REPLACE = 0
PLAYCTL_SEEK_EXACT = 1
PLAYCTL_ITEM_READY = 1
PLAYCTL_PLAYING = 2
PLAYCTL_FORMAT_RGBA = 2
EVENT_NONE, EVENT_SEEK_COMPLETED, EVENT_PLAYED_TO_END = 0, 5, 6


class Config(ctypes.Structure):
    _fields_ = [("clock", ctypes.c_int), ("audio", ctypes.c_int), ("action_at_item_end", ctypes.c_int),
                ("audio_device", ctypes.c_char_p), ("share_clock", ctypes.c_void_p),
                ("reserved", ctypes.c_void_p * 8)]


class State(ctypes.Structure):
    _fields_ = [("time", ctypes.c_double), ("duration", ctypes.c_double), ("rate", ctypes.c_double),
                ("time_control_status", ctypes.c_int), ("waiting_reason", ctypes.c_int),
                ("item_status", ctypes.c_int), ("audio_output", ctypes.c_int), ("avsync", ctypes.c_double),
                ("clock_time", ctypes.c_double), ("volume", ctypes.c_double), ("muted", ctypes.c_int),
                ("width", ctypes.c_int), ("height", ctypes.c_int), ("frames_rendered", ctypes.c_uint64),
                ("frames_dropped", ctypes.c_uint64), ("reserved", ctypes.c_double * 8)]


class Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("error", ctypes.c_int), ("request_id", ctypes.c_uint64),
                ("time", ctypes.c_double), ("clock_time", ctypes.c_double), ("item_status", ctypes.c_int),
                ("time_control_status", ctypes.c_int), ("waiting_reason", ctypes.c_int),
                ("finished", ctypes.c_int), ("landed", ctypes.c_double), ("duration", ctypes.c_double),
                ("rate", ctypes.c_double), ("value", ctypes.c_int64), ("item", ctypes.c_char_p),
                ("message", ctypes.c_char_p), ("pip", ctypes.c_void_p)]


class Target(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("planes", ctypes.POINTER(ctypes.c_uint8) * 3), ("strides", ctypes.c_int * 3)]


class FrameInfo(ctypes.Structure):
    _fields_ = [("time", ctypes.c_double), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("serial", ctypes.c_uint64), ("is_new", ctypes.c_int)]


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
    player = ctypes.c_void_p
    for name, restype, argtypes in [
        ("playctl_api_version", ctypes.c_uint32, []),
        ("playctl_error_string", ctypes.c_char_p, [ctypes.c_int]),
        ("playctl_event_name", ctypes.c_char_p, [ctypes.c_int]),
        ("playctl_create", player, [ctypes.POINTER(Config)]),
        ("playctl_destroy", None, [player]),
        ("playctl_load", ctypes.c_int, [player, ctypes.c_char_p, ctypes.c_int]),
        ("playctl_set_rate", ctypes.c_int, [player, ctypes.c_double]),
        ("playctl_seek", ctypes.c_int, [player, ctypes.c_double, ctypes.c_int, ctypes.c_uint64]),
        ("playctl_clock_advance", ctypes.c_int, [player, ctypes.c_double]),
        ("playctl_get_state", ctypes.c_int, [player, ctypes.POINTER(State)]),
        ("playctl_wait_event", ctypes.POINTER(Event), [player, ctypes.c_double]),
        ("playctl_render_sw", ctypes.c_int, [player, ctypes.POINTER(Target), ctypes.POINTER(FrameInfo)]),
        ("playctl_last_error_message", ctypes.c_int, [player, ctypes.c_char_p, ctypes.c_size_t]),
    ]:
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def main():
    clip = sys.argv[1] if len(sys.argv) > 1 else "../../Media/a.mp4"
    lib = load_library()
    failures = []

    def expect(condition, what):
        if not condition:
            print(f"python-ctypes: FAILED: {what}", file=sys.stderr)
            failures.append(what)

    def drain():
        """Prints every queued event; returns them as (type, finished, landed) tuples."""
        seen = []
        while True:
            event = lib.playctl_wait_event(player, 0).contents
            if event.type == EVENT_NONE:
                return seen
            line = (f"{event.clock_time:7.3f}  {lib.playctl_event_name(event.type).decode():20} "
                    f"{(event.item or b'').decode():8} item {event.time:.3f}")
            if event.type == EVENT_SEEK_COMPLETED:
                line += f"  id {event.request_id} finished {event.finished} landed {event.landed:.3f}"
            print(line)
            seen.append((event.type, event.finished, event.landed))

    expect(lib.playctl_api_version() >> 16 == 0, "the library's API major version is 0")
    config = Config(clock=PLAYCTL_CLOCK_MANUAL)
    player = lib.playctl_create(ctypes.byref(config))
    result = lib.playctl_load(player, clip.encode(), PLAYCTL_LOAD_REPLACE)
    if result < 0:
        message = ctypes.create_string_buffer(512)
        lib.playctl_last_error_message(player, message, len(message))
        print(f"python-ctypes: {lib.playctl_error_string(result).decode()}: {message.value.decode()}",
              file=sys.stderr)
        lib.playctl_destroy(player)
        return 1
    lib.playctl_set_rate(player, 1)
    for _ in range(10):
        lib.playctl_clock_advance(player, 0.1)
        drain()
    state = State()
    lib.playctl_get_state(player, ctypes.byref(state))
    expect(state.item_status == PLAYCTL_ITEM_READY, "the clip is ready")
    expect(state.time_control_status == PLAYCTL_PLAYING, "the player plays")
    expect(abs(state.time - 1.0) < 1e-3, "one second played")
    duration = state.duration

    target = duration - 2 if duration > 2 else duration / 2
    lib.playctl_seek(player, target, PLAYCTL_SEEK_EXACT, 1)
    lib.playctl_clock_advance(player, 0)
    seeks = [event for event in drain() if event[0] == EVENT_SEEK_COMPLETED]
    landed = seeks[-1][2] if seeks and seeks[-1][1] else math.nan
    expect(len(seeks) == 1, "the seek completed once")
    expect(abs(landed - target) < 1e-6, "the seek landed exactly on its target")

    width, height = 160, 90
    pixels = (ctypes.c_uint8 * (width * height * 4))()
    picture = Target(format=PLAYCTL_FORMAT_RGBA, width=width, height=height)
    picture.planes[0] = ctypes.cast(pixels, ctypes.POINTER(ctypes.c_uint8))
    picture.strides[0] = width * 4
    info = FrameInfo()
    expect(lib.playctl_render_sw(player, ctypes.byref(picture), ctypes.byref(info)) == 0, "the frame renders")
    expect(target - 0.1 < info.time <= target + 1e-6, "the frame shown is the one at the target")
    expect(all(pixels[i] == 255 for i in range(3, len(pixels), 4)), "the picture is opaque")

    ended = False
    for _ in range(40):
        lib.playctl_clock_advance(player, 0.1)
        if any(event[0] == EVENT_PLAYED_TO_END for event in drain()):
            ended = True
            break
    expect(ended, "the clip played to its end")
    lib.playctl_get_state(player, ctypes.byref(state))
    expect(abs(state.time - duration) < 0.05, "the playhead is at the end")
    print(f"python-ctypes: {clip}, {duration:.3f} s, seek landed at {landed:.3f}, {state.frames_rendered} frames "
          f"shown: {'FAILED' if failures else 'ok'}")
    lib.playctl_destroy(player)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
