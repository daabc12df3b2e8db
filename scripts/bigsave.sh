#!/usr/bin/env bash
# Writes the 50-combatant 10,000-entry save the pty measurements play (what the benches in
# benches/save.rs play too) as DATA_DIR/saves/big.ron, through `srtrack exec`.
# Usage: scripts/bigsave.sh SRTRACK DATA_DIR
set -euo pipefail
bin=$(realpath "$1")
dir=$2
{
  echo 'add Jinx pc int 4 rea 5 edge 2 body 4 will 3'
  echo 'add Rook pc int 3 rea 4 edge 1 body 5 will 3'
  echo 'add Ganger x48 npc int 3 rea 3 edge 1 body 3 will 2'
  echo 'roll all'
  echo start
  for _ in $(seq 3331); do echo next; echo 'damage Rook 1 stun'; echo 'heal Rook 1 stun'; done
  echo next; echo 'damage Rook 1 stun'
} | "$bin" --data-dir "$dir" exec big >/dev/null
