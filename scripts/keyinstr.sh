#!/usr/bin/env bash
# Instructions a key costs in the real program, counted by valgrind's callgrind (repeatable
# whatever else the machine is doing): srtrack (release build) in tmux at 160×48 on a fresh copy
# of the demo, KEYS pressed N times over, less a run that presses none, divided by the keys.
# Usage: scripts/keyinstr.sh SRTRACK KEYS N     e.g. scripts/keyinstr.sh target/release/srtrack jk 50
# (in KEYS, E stands for Esc). Needs valgrind and tmux. With KEYINSTR_KEEP=DIR, the two
# callgrind files (with.cg: the keys pressed; without.cg: none) are kept there, for
# callgrind_annotate to say where the instructions go.
set -euo pipefail
bin=$(realpath "$1")
keys=$2
n=$3
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'tmux kill-session -t keyinstr 2>/dev/null || true; rm -rf "$work"' EXIT
total() {
  local out=$1 presses=$2
  mkdir -p "$work/$out/saves"
  cp "$root/saves/demo.ron" "$work/$out/saves/"
  tmux new-session -d -s keyinstr -x 160 -y 48 \
    "valgrind --tool=callgrind --callgrind-out-file=$work/$out.cg $bin --data-dir $work/$out open demo"
  sleep 5
  for _ in $(seq "$presses"); do
    for ((j = 0; j < ${#keys}; j++)); do
      k=${keys:$j:1}
      [[ $k == E ]] && k=Escape
      tmux send-keys -t keyinstr "$k"
      sleep 0.05
    done
  done
  sleep 1
  # Out of any popup, then quit.
  tmux send-keys -t keyinstr Escape
  sleep 0.2
  tmux send-keys -t keyinstr Escape
  sleep 0.2
  tmux send-keys -t keyinstr q
  while tmux has-session -t keyinstr 2>/dev/null; do sleep 0.2; done
  callgrind_annotate "$work/$out.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
with=$(total with "$n")
without=$(total without 0)
echo "$(( (with - without) / (n * ${#keys}) )) instructions a key ($keys x $n, demo, 160x48)"
if [[ -n ${KEYINSTR_KEEP:-} ]]; then
  mkdir -p "$KEYINSTR_KEEP"
  cp "$work/with.cg" "$work/without.cg" "$KEYINSTR_KEEP/"
fi
