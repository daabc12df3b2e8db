#!/usr/bin/env python3
"""Where a first frame's time goes in ptybench: the program in a pseudo-terminal, read the way
ptybench reads it (look at the screen's text, read what came, feed it to pyte, look again), with
each step timed: the launch, each look at the screen ("text"), each read (its bytes and when it
came) and pyte digesting it ("feed"). For measuring, not for tests; `pip install pyte` first.

Usage: scripts/ptyphases.py COLS ROWS LAUNCHES WAIT -- PROGRAM ARGS...
  e.g. scripts/ptyphases.py 160 48 9 'for every key' -- target/release/srtrack open demo
       scripts/ptyphases.py 160 48 9 'line 1' -- less lines.txt
Prints the first three launches step by step, then the median and the least of all.
"""
import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import termios
import time

import pyte


def launch(cmd, cols, rows, wait):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def own_terminal():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=own_terminal, env=dict(os.environ, TERM="xterm-256color"))
    os.close(slave)
    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    steps = [("launched", time.perf_counter() - t0)]

    def text():
        t = time.perf_counter()
        shown = "\n".join(screen.display)
        steps.append(("text", time.perf_counter() - t))
        return shown

    def pump(timeout):
        if not select.select([master], [], [], timeout)[0]:
            return False
        data = os.read(master, 65536)
        t = time.perf_counter()
        steps.append((f"read {len(data)} B at", t - t0))
        stream.feed(data)
        steps.append(("feed", time.perf_counter() - t))
        return True

    end = t0 + 10
    while wait not in text():
        if time.perf_counter() > end:
            sys.exit(f"the screen never showed {wait!r}")
        pump(0.05)
        while pump(0):
            pass
    total = time.perf_counter() - t0
    os.write(master, b"q")
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    os.close(master)
    return total, steps


def main():
    if "--" not in sys.argv or len(sys.argv) < 7:
        sys.exit(__doc__)
    cols, rows, launches, wait = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    totals = []
    for i in range(launches):
        total, steps = launch(cmd, cols, rows, wait)
        totals.append(total * 1000)
        if i < 3:
            print(f"{total * 1000:.1f} ms:", "  ".join(f"{k} {v * 1000:.1f}" for k, v in steps))
    print(f"median {statistics.median(totals):.1f} ms, least {min(totals):.1f} ms ({launches} launches)")


if __name__ == "__main__":
    main()
