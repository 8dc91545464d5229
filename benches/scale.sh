#!/usr/bin/env bash
# paperscout's index at each N given, side by side with hnswlib (pip) in the
# same run: import, build from scratch, a day's increment, one-shot and
# served `like`, recall@10 against exact. docs/benchmarks.md holds the table.
#   benches/scale.sh 75000 1000000 3000000
# Needs a library with real vectors to make the synthetic ones from
# (PAPERSCOUT_SCALE_SOURCE, default target/corpus-lib; see docs/benchmarks.md).
# Work files (several GB at 1 M) go to PAPERSCOUT_SCALE_WORK (default target/scale).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: benches/scale.sh N [N...]" >&2; exit 2; }
source_lib="${PAPERSCOUT_SCALE_SOURCE:-target/corpus-lib}"
work="${PAPERSCOUT_SCALE_WORK:-target/scale}"
[ -f "$source_lib/library.sqlite" ] || { echo "benches/scale.sh: no library at $source_lib" >&2; exit 1; }
models/fetch
cargo build --release --quiet
venv=target/scale-venv
if ! "$venv/bin/python" -c "import numpy, hnswlib, pyarrow" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy hnswlib==0.8.0 pyarrow
fi
for n in "$@"; do
    "$venv/bin/python" benches/scale.py --source "$source_lib" --n "$n" --work "$work/$n" --bin target/release/paperscout
done
