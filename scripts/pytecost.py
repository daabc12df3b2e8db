#!/usr/bin/env python3
"""What the pyte emulator (the one ptybench reads the screen through) pays for each piece of
output: a printed character of a few kinds, and the sequences srtrack writes (colour changes,
cursor moves, erases), each fed 1,000 times over on a 160x48 screen, the best of 5 rounds.
For the README's account of where a frame's time goes; for measuring, not for tests.
`pip install pyte` first.

Usage: scripts/pytecost.py [FILE...]   with files: also the time to feed each (a frame's bytes,
                                       captured from a pseudo-terminal)
"""
import sys
import time

import pyte


def feed_ms(data, n=30):
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            pyte.ByteStream(pyte.Screen(160, 48)).feed(data)
        best = min(best, (time.perf_counter() - start) / n * 1000)
    return best


def main():
    base = feed_ms(b"")
    pieces = [
        ("a letter", "a"),
        ("a space", " "),
        ("a box-drawing line", "─"),
        ("an arrow", "→"),
        ("colour change, one number", "\x1b[36m"),
        ("colour change, two numbers", "\x1b[1;36m"),
        ("colour change, three numbers", "\x1b[1;30;43m"),
        ("cursor forward (CUF)", "\x1b[5C"),
        ("cursor to (CUP)", "\x1b[10;20H"),
        ("erase characters (ECH)", "\x1b[5X"),
    ]
    for name, piece in pieces:
        each = (feed_ms((piece * 1000).encode()) - base) / 1000 * 1000
        print(f"{name:30} {each:6.2f} µs each")
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        print(f"{path}: {len(data)} bytes, {feed_ms(data) - base:.2f} ms to feed")


if __name__ == "__main__":
    main()
