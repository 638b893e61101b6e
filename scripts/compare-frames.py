#!/usr/bin/env python3
"""Compares two raw pictures of the same size and format (bytes, e.g. rgb24): prints the PSNR in dB (99 when
identical) and the mean absolute difference per byte. Used by scripts/examples.sh to compare a screenshot of the
c-sdl2 example's window with FFmpeg's decode of the frame it says it shows.

    scripts/compare-frames.py A.rgb B.rgb      ->  psnr 33.49 mean-abs 1.63
"""
import math
import sys

a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
if len(a) != len(b) or not a:
    sys.exit(f"compare-frames: {sys.argv[1]} has {len(a)} bytes, {sys.argv[2]} {len(b)}")
squares = absolute = 0
for x, y in zip(a, b):
    d = x - y
    squares += d * d
    absolute += abs(d)
mse = squares / len(a)
psnr = 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse))
print(f"psnr {psnr:.2f} mean-abs {absolute / len(a):.2f}")
