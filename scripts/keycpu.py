#!/usr/bin/env python3
"""The CPU a program spends on keys, its own (user + system), in a real pseudo-terminal.

Usage: scripts/keycpu.py COLS ROWS KEYS N -- CMD...

Runs CMD in a pty of COLS x ROWS, waits a second for its first frame, sends the characters of
KEYS in turn N times (E stands for Esc), reading what it writes and waiting 10 ms after each
key, then Esc twice (out of any popup) and `q`, and prints the CPU milliseconds the program used and its peak RSS. Run it with
N = 0 for what opening and quitting cost, and subtract. README, Performance.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    cols, rows, keys, n = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    keys = keys.replace("E", "\x1b")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def drain(seconds):
        end = time.time() + seconds
        while True:
            ready, _, _ = select.select([fd], [], [], max(0, end - time.time()))
            if not ready:
                return
            try:
                os.read(fd, 65536)
            except OSError:
                return

    drain(1.0)
    for i in range(n):
        os.write(fd, keys[i % len(keys)].encode())
        drain(0.01)
    for key in (b"\x1b", b"\x1b", b"q"):
        os.write(fd, key)
        drain(0.05)
    drain(0.5)
    _, _, ru = os.wait4(pid, 0)
    print("cpu %.1f ms (user %.1f, system %.1f), peak RSS %d KiB" % (
        (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_utime * 1000, ru.ru_stime * 1000, ru.ru_maxrss))


if __name__ == "__main__":
    main()
