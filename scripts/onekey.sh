#!/usr/bin/env bash
# Instructions the keys KEYS cost on a save, counted by valgrind's callgrind only while they are
# pressed (not the launch, the audit or the quit, which keyinstr.sh's difference of two runs
# takes in): srtrack (release build) in tmux at COLS×ROWS (160×48 unless given) on a fresh copy
# of SAVE (`demo`, `big`: a new 10,000-entry save of scripts/bigsave.sh, or a save file's path,
# to hold two builds to the same rolls), a minute left for the
# audit to answer first, a second between keys (E stands for Esc). Prints the total; with
# ONEKEY_KEEP=FILE the callgrind file is kept there, for callgrind_annotate.
# Usage: scripts/onekey.sh SRTRACK SAVE KEYS [COLS ROWS]     e.g. scripts/onekey.sh target/release/srtrack big n
set -euo pipefail
bin=$(realpath "$1")
save=$2
keys=$3
cols=${4:-160}
rows=${5:-48}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'tmux kill-session -t onekey 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/saves"
if [[ -f $save ]]; then
  cp "$save" "$work/saves/"
  save=$(basename "$save" .ron)
elif [[ $save == big ]]; then
  "$root/scripts/bigsave.sh" "$bin" "$work"
else
  cp "$root/saves/$save.ron" "$work/saves/"
fi
tmux new-session -d -s onekey -x "$cols" -y "$rows" \
  "valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$work/keys.cg $bin --data-dir $work open $save"
sleep 60
callgrind_control -i on >/dev/null 2>&1
for ((j = 0; j < ${#keys}; j++)); do
  k=${keys:$j:1}
  [[ $k == E ]] && k=Escape
  tmux send-keys -t onekey "$k"
  sleep 1
done
callgrind_control -i off >/dev/null 2>&1
tmux send-keys -t onekey Escape
sleep 0.2
tmux send-keys -t onekey q
while tmux has-session -t onekey 2>/dev/null; do sleep 0.2; done
total=$(callgrind_annotate "$work/keys.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "$total instructions for $keys ($save, ${cols}x${rows})"
if [[ -n ${ONEKEY_KEEP:-} ]]; then
  cp "$work/keys.cg" "$ONEKEY_KEEP"
fi
