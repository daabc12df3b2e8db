#!/usr/bin/env bash
# Refreshes the README's screen capture: opens saves/demo.ron (a copy; the file is not touched)
# in tmux at 120x36 and puts what the screen shows into README.md, between the line that
# introduces the capture and the end of its code block.
# Usage: scripts/capture.sh [path/to/srtrack]   (default: builds and uses target/debug/srtrack)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [[ $# -ge 1 ]]; then
  bin=$(realpath "$1")
else
  cargo build -q --bin srtrack
  bin="$root/target/debug/srtrack"
fi
command -v tmux >/dev/null || { echo "capture: tmux is needed" >&2; exit 1; }
work=$(mktemp -d)
sock="srtrack-capture-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
cp saves/demo.ron "$work/demo.ron"
tmux -L "$sock" new-session -d -s cap -x 120 -y 36 \
  "SRTRACK_DATA_DIR='$work' '$bin' open '$work/demo.ron'; sleep 30"
screen() { tmux -L "$sock" capture-pane -p -t cap; }
shown=""
for _ in $(seq 1 100); do
  sleep 0.1
  now=$(screen)
  # Settled: the tracker is drawn and two looks in a row agree.
  if [[ "$now" == *"Initiative order"* && "$now" == "$shown" ]]; then break; fi
  shown=$now
done
[[ "$shown" == *"Initiative order"* ]] || { echo "capture: the tracker never showed:" >&2; echo "$shown" >&2; exit 1; }
tmux -L "$sock" send-keys -t cap q
intro='Mid-fight it looks like this (`saves/demo.ron` at 120×36, captured from tmux by `scripts/capture.sh`):'
grep -qF "$intro" README.md || { echo "capture: README.md lacks the line: $intro" >&2; exit 1; }
printf '%s\n' "$shown" | sed 's/[[:space:]]*$//' > "$work/screen.txt"
awk -v intro="$intro" -v screen="$work/screen.txt" '
  state == 0 { print; if ($0 == intro) state = 1; next }
  state == 1 { print; if ($0 == "```text") { while ((getline l < screen) > 0) print l; state = 2 }; next }
  state == 2 { if ($0 == "```") { print; state = 3 }; next }
  { print }
' README.md > "$work/README.md"
cp "$work/README.md" README.md
echo "capture: README.md holds the screen of saves/demo.ron"
