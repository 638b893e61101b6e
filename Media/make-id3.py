#!/usr/bin/env python3
"""Adds a timed ID3 metadata stream to an MPEG-TS file, as HLS timed metadata carries it.

    python3 Media/make-id3.py IN.ts OUT.ts

ffmpeg's CLI has no source of timed ID3 packets, so this writes the stream itself, as Apple's "Timed Metadata for
HTTP Live Streaming" describes it and FFmpeg's MPEG-TS demuxer reads it (codec timed_id3):
- the PMT gets a new elementary stream (stream_type 0x15, metadata carried in PES, PID 0x0102) with a
  metadata_descriptor (tag 0x26: application format 0xFFFF 'ID3 ', format 0xFF 'ID3 ', the descriptor FFmpeg maps to
  AV_CODEC_ID_TIMED_ID3), and the program a metadata_pointer_descriptor (tag 0x25); its CRC-32 is computed again;
- one PES packet per sample (stream_id 0xBD, private stream 1, with a PTS on the file's 90 kHz clock), its TS packets
  put before the first audio or video PES packet decoded at or after that time.
The samples (SAMPLES below) lie at 0.5, 1.5, 2.5 and 3.5 s from the start of the media (the earliest PTS of the file,
which is where FFmpeg's start_time lies). Nothing else of the file changes: its audio and video packets are kept
byte for byte (make-media.sh checks that ffmpeg decodes them as before).
Standard library only.
"""

import struct
import sys

TS = 188
PAT_PID = 0x0000
ID3_PID = 0x0102
ID3_TAG = b"ID3 "


# --- ID3v2 tags -------------------------------------------------------------------------------------------------------


def syncsafe(n):
    """A 28-bit number as four bytes of seven bits each (ID3v2's sizes)."""
    assert n < 1 << 28
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def unsynchronise(body):
    """ID3v2's unsynchronisation: a 0x00 after every 0xFF followed by 0xE0 or more or 0x00 (or at the end)."""
    out = bytearray()
    for i, b in enumerate(body):
        out.append(b)
        if b == 0xFF and (i + 1 == len(body) or body[i + 1] >= 0xE0 or body[i + 1] == 0x00):
            out.append(0x00)
    return bytes(out)


def frame(version, frame_id, body):
    """One frame: ID3v2.4 sizes are syncsafe, ID3v2.3 sizes plain; no frame flags."""
    size = syncsafe(len(body)) if version == 4 else struct.pack(">I", len(body))
    return frame_id.encode("ascii") + size + b"\x00\x00" + body


def tag(version, frames, unsync=False):
    """A whole tag: header (flags: unsynchronisation when asked) and frames; v2.3's unsynchronisation covers them all."""
    body = b"".join(frames)
    if unsync:
        body = unsynchronise(body)
    return b"ID3" + bytes([version, 0, 0x80 if unsync else 0]) + syncsafe(len(body)) + body


def text(encoding, s, terminated=True):
    """`s` in ID3 text encoding 0 (ISO-8859-1), 1 (UTF-16 with a byte order mark) or 3 (UTF-8), with its terminator
    when asked."""
    if encoding == 0:
        return s.encode("latin-1") + b"\x00" * terminated
    if encoding == 1:
        return b"\xff\xfe" + s.encode("utf-16-le") + b"\x00\x00" * terminated
    return s.encode("utf-8") + b"\x00" * terminated


def txxx(version, encoding, description, value):
    return frame(version, "TXXX", bytes([encoding]) + text(encoding, description) + text(encoding, value, False))


def samples(start):
    """The samples as (PTS, tag bytes). The PRIV frame's 8 bytes are its sample's PTS (33 bits, big-endian), as
    Apple's com.apple.streaming.transportStreamTimestamp gives the timestamp of a packed audio segment."""
    t = [start + 45000 + 90000 * i for i in range(4)]
    geob = bytes((i * 7) & 0xFF for i in range(300))  # 300 bytes, 0xFF among them: two TS packets, unsynchronised
    return [
        (t[0], tag(4, [txxx(4, 3, "title", "Chapter 1")])),
        (t[1], tag(3, [frame(3, "TIT2", b"\x00Second"), frame(3, "WXXX", b"\x00\x00https://example.com/2")])),
        (t[2], tag(4, [frame(4, "PRIV", b"com.apple.streaming.transportStreamTimestamp\x00" + struct.pack(">Q", t[2]))])),
        (
            t[3],
            tag(
                3,
                [
                    txxx(3, 1, "size", "Größe 日本"),
                    frame(3, "COMM", b"\x00eng" + text(0, "") + "café".encode("latin-1")),
                    frame(3, "GEOB", b"\x00application/octet-stream\x00blob.bin\x00blob\x00" + geob),
                ],
                unsync=True,
            ),
        ),
    ]


# --- MPEG-TS ----------------------------------------------------------------------------------------------------------


def crc32_mpeg2(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc


def pid_of(packet):
    return ((packet[1] & 0x1F) << 8) | packet[2]


def payload_start(packet):
    """Where the payload begins (past the adaptation field), or None when the packet carries none."""
    control = (packet[3] >> 4) & 3
    if control & 1 == 0:
        return None
    return 4 + (1 + packet[4] if control & 2 else 0)


def read_timestamp(b):
    return ((b[0] >> 1) & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1


def write_pts(pts):
    return bytes(
        [0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1, (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1]
    )


def pes_times(packet):
    """(PTS, DTS) of a packet that starts a PES packet, else None."""
    if not packet[1] & 0x40:
        return None
    p = payload_start(packet)
    if p is None or packet[p : p + 3] != b"\x00\x00\x01":
        return None
    flags = packet[p + 7]
    if not flags & 0x80:
        return None
    pts = read_timestamp(packet[p + 9 : p + 14])
    dts = read_timestamp(packet[p + 14 : p + 19]) if flags & 0x40 else pts
    return pts, dts


def section_of(packet):
    """The section in a packet that starts one (pointer field 0 expected: ffmpeg's PAT and PMT)."""
    p = payload_start(packet)
    assert packet[1] & 0x40 and packet[p] == 0, "a PSI section that does not start its packet"
    section = packet[p + 1 :]
    length = ((section[1] & 0x0F) << 8 | section[2]) + 3
    assert crc32_mpeg2(section[:length]) == 0, "a PSI section whose CRC is wrong"
    return section[:length]


def psi_packet(header, section):
    payload = b"\x00" + section
    assert len(payload) <= TS - 4, "the new PMT does not fit in one TS packet"
    return header + payload + b"\xff" * (TS - 4 - len(payload))


def metadata_fields():
    return b"\xff\xff" + ID3_TAG + b"\xff" + ID3_TAG + b"\x00"


def new_pmt(section):
    """The PMT with the program's metadata_pointer_descriptor and the ID3 stream added."""
    program_number = section[3] << 8 | section[4]
    info_length = (section[10] & 0x0F) << 8 | section[11]
    info = section[12 : 12 + info_length]
    streams = section[12 + info_length : -4]
    pointer = metadata_fields() + b"\x1f" + struct.pack(">H", program_number)  # flags: no locator, same TS; reserved
    info += bytes([0x25, len(pointer)]) + pointer
    descriptor = metadata_fields() + b"\x0f"  # no decoder config, no DSM-CC; reserved
    es_info = bytes([0x26, len(descriptor)]) + descriptor
    streams += bytes([0x15, 0xE0 | ID3_PID >> 8, ID3_PID & 0xFF, 0xF0 | len(es_info) >> 8, len(es_info) & 0xFF]) + es_info
    body = section[3:10] + bytes([0xF0 | len(info) >> 8, len(info) & 0xFF]) + info + streams
    length = len(body) + 4  # + CRC
    out = bytes([section[0], 0xB0 | length >> 8, length & 0xFF]) + body
    return out + struct.pack(">I", crc32_mpeg2(out))


def pes_packets(pts, payload, counter):
    """The TS packets of one PES packet (private stream 1, PTS only, data aligned); `counter` is the PID's next
    continuity counter. Returns the packets and the next counter."""
    header = b"\x00\x00\x01\xbd" + struct.pack(">H", 3 + 5 + len(payload)) + b"\x84\x80\x05" + write_pts(pts)
    data = header + payload
    packets = []
    first = True
    while data:
        chunk, data = data[: TS - 4], data[TS - 4 :]
        pid = bytes([(0x40 if first else 0) | ID3_PID >> 8, ID3_PID & 0xFF])
        if len(chunk) == TS - 4:
            packets.append(b"\x47" + pid + bytes([0x10 | counter]) + chunk)
        else:
            stuffing = TS - 4 - len(chunk) - 1  # adaptation field length
            field = bytes([stuffing]) + (b"\x00" + b"\xff" * (stuffing - 1) if stuffing else b"")
            packets.append(b"\x47" + pid + bytes([0x30 | counter]) + field + chunk)
        counter = (counter + 1) & 0x0F
        first = False
    return packets, counter


def main(source, target):
    data = open(source, "rb").read()
    assert len(data) % TS == 0 and all(data[i] == 0x47 for i in range(0, len(data), TS)), "not a 188-byte MPEG-TS"
    packets = [data[i : i + TS] for i in range(0, len(data), TS)]
    pat = section_of(next(p for p in packets if pid_of(p) == PAT_PID))
    pmt_pid = (pat[10] & 0x1F) << 8 | pat[11]  # the first (ffmpeg's only) program
    pmt = section_of(next(p for p in packets if pid_of(p) == pmt_pid))
    assert ID3_PID not in {pid_of(p) for p in packets}, "the ID3 PID is taken"
    pmt_section = new_pmt(pmt)
    es_pids = set()
    info_length = (pmt[10] & 0x0F) << 8 | pmt[11]
    i = 12 + info_length
    while i < len(pmt) - 4:
        es_pids.add((pmt[i + 1] & 0x1F) << 8 | pmt[i + 2])
        i += 5 + ((pmt[i + 3] & 0x0F) << 8 | pmt[i + 4])
    start = min(t[0] for t in (pes_times(p) for p in packets if pid_of(p) in es_pids) if t)
    pending = samples(start)
    out = []
    counter = 0
    for packet in packets:
        pid = pid_of(packet)
        times = pes_times(packet) if pid in es_pids else None
        while pending and times and times[1] >= pending[0][0]:
            ts_packets, counter = pes_packets(pending[0][0], pending[0][1], counter)
            out += ts_packets
            pending.pop(0)
        if pid == pmt_pid:
            assert section_of(packet) == pmt, "the PMT changes along the file"
            packet = psi_packet(packet[:4], pmt_section)
        out.append(packet)
    for pts, payload in pending:
        ts_packets, counter = pes_packets(pts, payload, counter)
        out += ts_packets
    open(target, "wb").write(b"".join(out))
    for pts, payload in samples(start):
        print(f"{(pts - start) / 90000:.3f} s: pts {pts}, {len(payload)} bytes: {payload.hex()}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
