#!/usr/bin/env bash
# Builds modern-chess with profile-guided optimisation: the same program, the same moves and
# the same search trees node for node, about 10% more nodes a second (README, twenty-fourth
# session). It needs the Rust toolchain's llvm-tools component (installed here if missing).
#
#   docs/tools/build_pgo.sh            # prints the path of the optimised binary
#   PGO_DIR=/tmp/pgo docs/tools/build_pgo.sh
#
# Steps: an instrumented build; a training run (our engine against itself in every seed
# variant, a fixed number of nodes a move, so the same run whatever the machine); the
# profiles merged; a build that uses them.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$(mkdir -p "${PGO_DIR:-target/pgo}" && cd "${PGO_DIR:-target/pgo}" && pwd)
SYSROOT=$(rustc --print sysroot)
HOST=$(rustc -vV | sed -n 's/^host: //p')
PROFDATA="$SYSROOT/lib/rustlib/$HOST/bin/llvm-profdata"
if [ ! -x "$PROFDATA" ]; then
    rustup component add llvm-tools >&2
fi
if [ ! -x "$PROFDATA" ]; then
    echo "build_pgo: no llvm-profdata at $PROFDATA (rustup component add llvm-tools)" >&2
    exit 1
fi
rm -rf "$OUT/profiles"
mkdir -p "$OUT/profiles"
echo "build_pgo: instrumented build" >&2
CARGO_TARGET_DIR="$OUT/instrumented" RUSTFLAGS="-Cprofile-generate=$OUT/profiles" \
    cargo build --release --quiet
BIN="$OUT/instrumented/release/modern-chess"
echo "build_pgo: training (2 games in each seed variant, 20,000 nodes a move)" >&2
"$BIN" bench --strength --games-per-variant 2 --nodes 20000 --engine "$BIN uci" \
    --engine-nodes 20000 --seed 7 > "$OUT/training.txt" 2> "$OUT/training.err"
"$PROFDATA" merge -o "$OUT/merged.profdata" "$OUT/profiles"
echo "build_pgo: optimised build" >&2
CARGO_TARGET_DIR="$OUT/build" RUSTFLAGS="-Cprofile-use=$OUT/merged.profdata" \
    cargo build --release --quiet
echo "$OUT/build/release/modern-chess"
