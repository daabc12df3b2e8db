#!/usr/bin/env bash
# End to end on the real binary in a real terminal (tmux): open the demo, act through the picker,
# go to the next turn, quit, reopen, and find the same round, pass, turn and IP; resize and back;
# a second screen on the held save follows it and takes it when the first quits.
# Usage: tests/e2e_tmux.sh [path/to/srtrack]
set -euo pipefail
bin=$(realpath "${1:-target/debug/srtrack}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
sock="srtrack-e2e-$$-1"
trap 'tmux -L "srtrack-e2e-$$-1" kill-server 2>/dev/null || true; tmux -L "srtrack-e2e-$$-2" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$root/saves/demo.ron" "$work/demo.ron"

screen() { tmux -L "$sock" capture-pane -p -t "${pane:-e2e}" 2>/dev/null || true; }
wait_for() { # TEXT: wait up to 10 s for the screen to show it
  for _ in $(seq 1 100); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  echo "e2e: the screen never showed '$1'; it shows:" >&2
  screen >&2
  exit 1
}
start() {
  tmux -L "$sock" new-session -d -s e2e -x 160 -y 48 \
    "SRTRACK_DATA_DIR='$work' '$bin' open '$work/demo.ron'; sleep 30"
  wait_for "Initiative order"
}
header() { screen | sed -n '1,2p' | sed 's/ *✓ saved//; s/ *… saving//; s/ *$//'; }
row() { screen | grep -F "$1" | head -1; }

start
[[ "$(header)" == *"Round 2"*"▸1"*"Turn: ▶ Roto-drone  IP 5"* ]] || { echo "e2e: unexpected start: $(header)" >&2; exit 1; }
# Act through the picker: Enter opens it, typing filters, Enter spends.
tmux -L "$sock" send-keys -t e2e Enter
wait_for "spend an action"
tmux -L "$sock" send-keys -t e2e -l "fire gun"
tmux -L "$sock" send-keys -t e2e Enter
# Fire Gun has fire modes: the picker asks which, Enter takes the first (SS).
wait_for "Fire Gun: which fire mode?"
tmux -L "$sock" send-keys -t e2e Enter
wait_for "Roto-drone: Fire Gun SS (Simple, 2 IP)"
# SR5 offers the attack chain after an attack action: Esc skips it (the action stays spent).
wait_for "attack"
tmux -L "$sock" send-keys -t e2e Escape
sleep 0.3
tmux -L "$sock" send-keys -t e2e n
wait_for "Turn: ▶ Ganger 1"
wait_for "✓ saved"
before=$(header)
drone=$(row "5 Roto-drone")
tmux -L "$sock" send-keys -t e2e q
for _ in $(seq 1 50); do pgrep -f "$bin open $work/demo.ron" >/dev/null || break; sleep 0.1; done
tmux -L "$sock" kill-server 2>/dev/null || true

# A fresh tmux server for the second run: the first one may still be going away.
sock="srtrack-e2e-$$-2"
start
after=$(header)
[[ "$before" == "$after" ]] || { printf 'e2e: before quitting:\n%s\nafter reopening:\n%s\n' "$before" "$after" >&2; exit 1; }
[[ "$(row "5 Roto-drone")" == "$drone" ]] || { echo "e2e: Roto-drone's row changed: $drone / $(row "5 Roto-drone")" >&2; exit 1; }
# Its row: initiative 2, 3 IP now; pass 1 started with 5 and spent 2.
[[ "$drone" == *" 2   3 "*"5/2"* ]] || { echo "e2e: Roto-drone should have 3 IP, 5/2 in pass 1: $drone" >&2; exit 1; }
# A resize and back: the frame redrawn at each size, then the very screen it showed before (the
# clear a resize takes goes out with the next frame, in its write).
full=$(screen)
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
for _ in $(seq 1 100); do
  [[ "$(screen | wc -l)" == 30 && "$(screen | sed -n 29p)" == "? for every key"* ]] && break
  sleep 0.1
done
[[ "$(screen | sed -n 29p)" == "? for every key"* ]] || { printf 'e2e: at 100x30 the screen shows:\n%s\n' "$(screen)" >&2; exit 1; }
tmux -L "$sock" resize-window -t e2e -x 160 -y 48
for _ in $(seq 1 100); do [[ "$(screen)" == "$full" ]] && break; sleep 0.1; done
[[ "$(screen)" == "$full" ]] || { printf 'e2e: back at 160x48 the screen differs:\n%s\n' "$(diff <(echo "$full") <(screen))" >&2; exit 1; }
"$bin" show "$work/demo.ron" | sed -n 2p | grep -qF "Round 2, pass 1 of 5: Ganger 1's turn, 5 IP" \
  || { echo "e2e: show disagrees: $("$bin" show "$work/demo.ron" | sed -n 2p)" >&2; exit 1; }

# A save another srtrack holds: a second screen opens it read-only, follows what the first
# writes, and takes the save (writable) when the first quits.
tmux -L "$sock" new-session -d -s ro -x 160 -y 48 \
  "SRTRACK_DATA_DIR='$work' '$bin' open '$work/demo.ron' 2>/dev/null; sleep 30"
pane=ro wait_for "followed until it lets go"
turn() { pane=$1 header | grep -oE 'Turn: ▶ [A-Za-z0-9 .-]+  IP' | head -1; }
was=$(turn ro)
tmux -L "$sock" send-keys -t e2e n
wait_for "✓ saved"
now=$(turn e2e)
[[ "$now" != "$was" ]] || { echo "e2e: n did not move the turn: $now" >&2; exit 1; }
for _ in $(seq 1 50); do [[ "$(turn ro)" == "$now" ]] && break; sleep 0.1; done
[[ "$(turn ro)" == "$now" ]] || { echo "e2e: the read-only screen did not follow: $(turn ro), not $now" >&2; exit 1; }
tmux -L "$sock" send-keys -t e2e q
pane=ro wait_for "it is yours to change now"
tmux -L "$sock" send-keys -t ro n
pane=ro wait_for "✓ saved"
"$bin" show "$work/demo.ron" | sed -n 2p | grep -qF "$(turn ro | sed 's/Turn: ▶ //; s/  IP//')'s turn" \
  || { echo "e2e: show disagrees with the screen that took the save: $("$bin" show "$work/demo.ron" | sed -n 2p)" >&2; exit 1; }
echo "e2e: 2 passed, 0 failed"
