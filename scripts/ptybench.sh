#!/usr/bin/env bash
# The README's pty table (Performance): srtrack (release build) on the demo and on a
# 50-combatant 10,000-entry save (keys: the help opened and closed, the selection moved down and
# up, next turn and its undo), `less` on 5,000 lines and, if given, the other tracker, each
# measured by ptybench.py in a real pseudo-terminal, with the load average before and after.
# Builds and commits nothing of the other tracker: pass its binary.
# Usage: scripts/ptybench.sh PTYBENCH.py SRTRACK [OTHER-TRACKER] [COLS ROWS] [RUNS]
set -euo pipefail
bench=$(realpath "$1")
bin=$(realpath "$2")
other=${3:+$(realpath "$3")}
cols=${4:-160}
rows=${5:-48}
runs=${6:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pb() { python3 "$bench" --cols "$cols" --rows "$rows" --runs "$runs" "$@"; }

# The 10,000-entry save, 50 combatants.
"$root/scripts/bigsave.sh" "$bin" "$work"
cp "$root/saves/demo.ron" "$work/saves/"
seq 1 5000 | sed 's/^/line /' >"$work/lines.txt"

echo "load before: $(uptime)"
# How fast the machine is, and whether it runs two things at once (another tenant of a VM shows
# here): the same busy loop alone, then two at once.
python3 - <<'PY'
import multiprocessing as mp, time
def spin(_):
    n = 0
    for i in range(3_000_000):
        n += i
    return n
t = time.perf_counter(); spin(0); one = time.perf_counter() - t
with mp.Pool(2) as pool:
    pool.map(spin, [0, 0], chunksize=1)  # start the workers first
    t = time.perf_counter(); pool.map(spin, [0, 1], chunksize=1); two = time.perf_counter() - t
print(f"cores: a busy loop alone {one * 1000:.0f} ms, two at once {two * 1000:.0f} ms ({two / one:.2f}x; 1.0 on two free cores)")
PY
for save in demo big; do
  echo "== srtrack $save, view (? then Esc)"
  pb --wait 'for every key' --key '?' --expect '*' --key ESC --expect '*' --quit q -- "$bin" --data-dir "$work" open "$save"
  echo "== srtrack $save, selection (j then k)"
  pb --wait 'for every key' --key j --expect '*' --key k --expect '*' --quit q -- "$bin" --data-dir "$work" open "$save"
  echo "== srtrack $save, action (n then u)"
  pb --wait 'for every key' --key n --expect '*' --key u --expect '*' --quit q -- "$bin" --data-dir "$work" open "$save"
done
echo "== less, 5,000 lines (Space then b)"
pb --wait 'line 1' --key SPACE --expect '*' --key b --expect '*' --quit q -- less "$work/lines.txt"
if [[ -n "$other" ]]; then
  # Run from an empty directory: it writes its files where it starts.
  empty=$(mktemp -d)
  echo "== the other tracker (? then Esc)"
  pb --cwd "$empty" --wait Quit --key '?' --expect '*' --key ESC --expect '*' --quit q -- "$other" || true
  # It may outlive the run and eat the CPU: say so (end them by their ids).
  if pgrep -x "$(basename "$other" | cut -c1-15)" >/dev/null; then
    echo "left running: $(pgrep -x "$(basename "$other" | cut -c1-15)" | tr '\n' ' ')" >&2
  fi
  rm -rf "$empty"
fi
echo "load after: $(uptime)"
