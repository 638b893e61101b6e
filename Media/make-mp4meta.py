#!/usr/bin/env python3
"""Adds MP4 timed metadata to MP4 files that ffmpeg made, as FFmpeg's muxer cannot write it.

    python3 Media/make-mp4meta.py emsg IN.mp4 OUT.mp4    # IN: fragmented (a moof per second, tfdt from 0, no B-frames)
    python3 Media/make-mp4meta.py mebx IN.mp4 OUT.mp4    # IN: not fragmented, its moov after its mdat

emsg: event message boxes (ISO/IEC 23009-1 5.10.3.3) put before the fragments' moof boxes, as a CMAF or HLS fMP4
segment carries them (the mfra box at the end is dropped: its moof offsets would be wrong):
- before fragment 0: v1, scheme https://aomedia.org/emsg/ID3, timescale 1000, presentation_time 500 (0.5 s), an ID3v2.4
  tag with TXXX "title" = "Chapter 1";
- before fragment 1 (earliest presentation time 1 s): v0, the ID3 scheme, timescale 90000, presentation_time_delta
  45000 (1.5 s), duration 0xFFFFFFFF (unknown), an ID3v2.3 tag with TIT2 "Second";
- before fragment 2: v1, scheme urn:scte:scte35:2013:bin, value "1", timescale 90000, presentation_time 225000 (2.5 s),
  duration 180000 (2 s), id 7, message bytes 0xFC 0x30 0x11 0x00 0xFF 0x00;
- before fragment 3 (3 s): v0, scheme urn:example:chapter, value "4", timescale 1000, delta 500 (3.5 s), duration
  250, id 9, message "chapter four" (UTF-8).

mebx: a QuickTime timed metadata track (what AVAssetWriter writes for AVMetadataItems: handler 'meta', sample entry
'mebx' with a 'keys' table, each sample boxed items whose type is a local key id, each holding a 'data' atom) added to
the moov, its samples in a new mdat after it (the file's other offsets do not move). mdhd timescale 1000; samples:
- 0 to 1 s: key 1 mdta/com.apple.quicktime.location.ISO6709, UTF-8 (type 1) "+48.8584+002.2945/";
- 1 to 2.5 s: key 2 mdta/com.example.score, signed big-endian integer (type 21, 4 bytes) 42, and key 3
  mdta/com.example.speed, 32-bit float (type 23) 1.5;
- 2.5 to 3 s: an empty sample (no item: no group);
- 3 to 4 s: key 1 "+35.6586+139.7454/" and key 4 mdta/com.example.blob, raw data (type 0) bytes 00 01 02 FF.
Standard library only.
"""

import struct
import sys


def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body


def full_box(kind, version, flags, body):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def boxes(data, start=0, end=None):
    """(type, start, size) of the boxes in data[start:end] (32-bit sizes: what ffmpeg writes for these files)."""
    end = len(data) if end is None else end
    out = []
    while start < end:
        size, kind = struct.unpack(">I4s", data[start : start + 8])
        assert size >= 8, "a box size this script does not handle"
        out.append((kind, start, size))
        start += size
    return out


# --- emsg -------------------------------------------------------------------------------------------------------------


def id3(version, frames):
    body = b"".join(frames)
    size = len(body)
    return b"ID3" + bytes([version, 0, 0]) + bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F]) + body


def id3_frame(version, frame_id, body):
    n = len(body)
    size = bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F]) if version == 4 else struct.pack(">I", n)
    return frame_id + size + b"\x00\x00" + body


def emsg_v0(scheme, value, timescale, delta, duration, event_id, message):
    body = scheme + b"\x00" + value + b"\x00" + struct.pack(">IIII", timescale, delta, duration, event_id) + message
    return full_box(b"emsg", 0, 0, body)


def emsg_v1(scheme, value, timescale, time, duration, event_id, message):
    body = struct.pack(">IQII", timescale, time, duration, event_id) + scheme + b"\x00" + value + b"\x00" + message
    return full_box(b"emsg", 1, 0, body)


ID3_SCHEME = b"https://aomedia.org/emsg/ID3"

EVENTS = [
    emsg_v1(ID3_SCHEME, b"", 1000, 500, 0, 1, id3(4, [id3_frame(4, b"TXXX", b"\x03title\x00Chapter 1")])),
    emsg_v0(ID3_SCHEME, b"", 90000, 45000, 0xFFFFFFFF, 2, id3(3, [id3_frame(3, b"TIT2", b"\x00Second")])),
    emsg_v1(b"urn:scte:scte35:2013:bin", b"1", 90000, 225000, 180000, 7, bytes([0xFC, 0x30, 0x11, 0x00, 0xFF, 0x00])),
    emsg_v0(b"urn:example:chapter", b"4", 1000, 500, 250, 9, "chapter four".encode()),
]


def add_emsg(data):
    out = bytearray()
    fragment = 0
    for kind, start, size in boxes(data):
        if kind == b"mfra":
            continue
        if kind == b"moof":
            assert fragment < len(EVENTS) + 1, "more fragments than expected"
            if fragment < len(EVENTS):
                out += EVENTS[fragment]
            fragment += 1
        out += data[start : start + size]
    assert fragment == len(EVENTS), f"{fragment} fragments, {len(EVENTS)} expected"
    return bytes(out)


# --- mebx -------------------------------------------------------------------------------------------------------------

KEYS = [
    (1, b"com.apple.quicktime.location.ISO6709", 1),
    (2, b"com.example.score", 21),
    (3, b"com.example.speed", 23),
    (4, b"com.example.blob", 0),
]


def item(key, data_type, value):
    return box(struct.pack(">I", key), box(b"data", struct.pack(">II", data_type, 0) + value))


SAMPLES = [  # (duration in ms, items)
    (1000, [item(1, 1, b"+48.8584+002.2945/")]),
    (1500, [item(2, 21, struct.pack(">i", 42)), item(3, 23, struct.pack(">f", 1.5))]),
    (500, []),
    (1000, [item(1, 1, b"+35.6586+139.7454/"), item(4, 0, bytes([0, 1, 2, 0xFF]))]),
]


def metadata_trak(track_id, samples_offset):
    keys = b"".join(
        box(struct.pack(">I", local), box(b"keyd", b"mdta" + name) + box(b"dtyp", struct.pack(">II", 0, data_type)))
        for local, name, data_type in KEYS
    )
    entry = box(b"mebx", b"\x00" * 6 + struct.pack(">H", 1) + box(b"keys", keys))
    sizes = [len(b"".join(items)) for _, items in SAMPLES]
    duration = sum(d for d, _ in SAMPLES)
    stbl = box(
        b"stbl",
        full_box(b"stsd", 0, 0, struct.pack(">I", 1) + entry)
        + full_box(b"stts", 0, 0, struct.pack(">I", len(SAMPLES)) + b"".join(struct.pack(">II", 1, d) for d, _ in SAMPLES))
        + full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(SAMPLES), 1))
        + full_box(b"stsz", 0, 0, struct.pack(">II", 0, len(SAMPLES)) + b"".join(struct.pack(">I", s) for s in sizes))
        + full_box(b"stco", 0, 0, struct.pack(">II", 1, samples_offset)),
    )
    dinf = box(b"dinf", full_box(b"dref", 0, 0, struct.pack(">I", 1) + full_box(b"url ", 0, 1, b"")))
    minf = box(b"minf", full_box(b"nmhd", 0, 0, b"") + dinf + stbl)
    hdlr = full_box(b"hdlr", 0, 0, b"\x00" * 4 + b"meta" + b"\x00" * 12 + b"Timed metadata\x00")
    mdhd = full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, 1000, duration, 0x55C4, 0))
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    tkhd = full_box(
        b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, track_id, 0, duration) + b"\x00" * 8 + struct.pack(">hhhH", 0, 0, 0, 0) + matrix + struct.pack(">II", 0, 0)
    )
    return box(b"trak", tkhd + box(b"mdia", mdhd + hdlr + minf)), b"".join(b"".join(items) for _, items in SAMPLES)


def add_mebx(data):
    top = boxes(data)
    kinds = [k for k, _, _ in top]
    assert kinds.index(b"moov") > kinds.index(b"mdat") and kinds[-1] == b"moov", "the moov must be last, after the mdat"
    _, moov_start, moov_size = top[-1]
    moov = data[moov_start : moov_start + moov_size]
    children = boxes(moov, 8)
    _, mvhd_start, mvhd_size = next(c for c in children if c[0] == b"mvhd")
    mvhd = bytearray(moov[mvhd_start : mvhd_start + mvhd_size])
    assert mvhd[8] == 0, "an mvhd of version 1"
    track_id = struct.unpack(">I", mvhd[-4:])[0]
    mvhd[-4:] = struct.pack(">I", track_id + 1)
    # The moov grows by the trak; the new mdat follows it: its payload starts after both headers.
    trak_length = len(metadata_trak(track_id, 0)[0])
    samples_offset = moov_start + moov_size + trak_length + 8
    trak, payload = metadata_trak(track_id, samples_offset)
    body = b"".join(bytes(mvhd) if c[0] == b"mvhd" else moov[c[1] : c[1] + c[2]] for c in children) + trak
    return data[:moov_start] + box(b"moov", body) + box(b"mdat", payload)


def main(mode, source, target):
    data = open(source, "rb").read()
    out = add_emsg(data) if mode == "emsg" else add_mebx(data)
    open(target, "wb").write(out)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("emsg", "mebx"):
        sys.exit(__doc__)
    main(*sys.argv[1:])
