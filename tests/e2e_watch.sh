#!/usr/bin/env bash
# End to end: `srtrack watch` in a real terminal (tmux) beside `srtrack exec` on the same save.
# Each change exec makes must appear on the players' view; hidden characters never; the view
# waits while the save is gone and picks up when it is back; watching writes nothing.
# Usage: tests/e2e_watch.sh [path/to/srtrack]
set -euo pipefail
bin=$(realpath "${1:-target/debug/srtrack}")
work=$(mktemp -d)
sock="srtrack-watch-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
save="$work/rooftop.ron"

screen() { tmux -L "$sock" capture-pane -p -t w 2>/dev/null || true; }
wait_for() { # TEXT: wait up to 5 s for the screen to show it
  for _ in $(seq 1 100); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  echo "e2e watch: the screen never showed '$1'; it shows:" >&2
  screen >&2
  exit 1
}
exec_() { printf '%s\n' "$@" | "$bin" exec "$save" >/dev/null; }

exec_ "add Ana pc int 4 rea 5 edge 3 body 4 will 5" "add Ganger x2 int 3 rea 3 body 4 will 3 shared" \
  "add Sniper int 4 rea 4" "hide Sniper" "roll Ana hits 3" "roll Ganger hits 1" "roll Sniper hits 2" "start"
tmux -L "$sock" new-session -d -s w -x 100 -y 24 "'$bin' watch '$save'; sleep 30"
wait_for "Turn: ▶ Ana"
wait_for "IP 5 left 0 spent"
screen | grep -qF "Sniper" && { echo "e2e watch: a hidden character shows" >&2; exit 1; }
exec_ "act Ana simple"
wait_for "IP 3 left 2 spent"
exec_ "next"
wait_for "✓  1 Ana"
screen | grep -qF "Turn: ▶" && { echo "e2e watch: the hidden Sniper is named as acting" >&2; exit 1; }
exec_ "reveal Sniper"
wait_for "Turn: ▶ Sniper"
exec_ "next" "down \"Ganger 1\""
wait_for "Downed"
# The GM quits and the save is moved away: the view waits with the last view, then picks up.
mv "$save" "$work/aside"
wait_for "waiting: the save is not there"
mv "$work/aside" "$save"
exec_ "status Ana Shielded"
wait_for "Shielded"
# Watching wrote nothing and made no file: the directory is as exec left it.
listing() { (cd "$work" && shopt -s dotglob nullglob && for f in *; do echo "$f $(md5sum <"$f") $(stat -c %y "$f")"; done); }
before=$(listing)
sleep 0.3
after=$(listing)
[[ "$before" == "$after" ]] || { echo "e2e watch: the directory changed while watched" >&2; exit 1; }
tmux -L "$sock" send-keys -t w q
for _ in $(seq 1 100); do screen | grep -qF "players' view" || break; sleep 0.05; done
screen | grep -qF "players' view" && { echo "e2e watch: q did not quit" >&2; exit 1; }
echo "e2e watch: ok"
