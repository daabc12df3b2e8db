#!/usr/bin/env bash
# Captures one SR5 attack chain from a real terminal for the README: opens a copy of
# saves/sr5-docks.ron (the file is not touched) in tmux at 120x36, where Guard 1's attack on Jinx
# waits for the player's dice; A opens the defense, the table's dice are typed, then the soak.
# Prints the screen at the soak step (its live odds) and after it (the log and the status line).
# Usage: scripts/capture-sr5.sh [path/to/srtrack]   (default: builds and uses target/debug/srtrack)
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
sock="srtrack-capture-sr5-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
cp saves/sr5-docks.ron "$work/docks.ron"
tmux -L "$sock" new-session -d -s cap -x 120 -y 36 \
  "SRTRACK_DATA_DIR='$work' '$bin' open '$work/docks.ron'; sleep 30"
screen() { tmux -L "$sock" capture-pane -p -t cap | sed 's/[[:space:]]*$//'; }
# Waits until the screen shows $1 and holds still.
settle() {
  local shown="" now
  for _ in $(seq 1 100); do
    sleep 0.1
    now=$(screen)
    if [[ "$now" == *"$1"* && "$now" == "$shown" ]]; then return 0; fi
    shown=$now
  done
  echo "capture: the screen never showed \"$1\":" >&2
  echo "$shown" >&2
  exit 1
}
keys() { tmux -L "$sock" send-keys -t cap "$@"; }
settle "Initiative order"
keys A
settle "Jinx's defense"
keys Tab
keys -l "6 5 2 2 1 3 4 4 2"
keys Enter
settle "damage resistance"
keys Tab
keys -l "6 5 5 2 1 3 4 4 2 3 6 1 2 2 3 4"
settle "no damage on"
echo '--- the soak step'
screen
keys Enter
settle "Jinx takes 5 Stun"
echo '--- after it'
screen
keys q
