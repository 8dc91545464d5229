"""How many sketch candidates a one-shot query must rescore, measured on
real vectors: recall@10 (against exact f32) of the best K rows by Hamming
distance of sign bits, at several library sizes cut from one library.

    target/scale-venv/bin/python benches/sketch_recall.py --source target/corpus-lib

Ties at the K-th distance count against the sketch (a row is found only if
every row at its distance fits in K). docs/benchmarks.md holds the table.
"""

import argparse, json, sqlite3

import numpy as np

KS = [25, 50, 100, 200, 400, 800, 1600, 3200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--queries", type=int, default=100)
    a = ap.parse_args()
    db = sqlite3.connect(f"file:{a.source}/library.sqlite?mode=ro", uri=True)
    model = db.execute("SELECT value FROM meta WHERE key = 'model'").fetchone()[0]
    rows = db.execute("SELECT v.vec FROM papers p JOIN vectors v ON v.model = ? AND v.text_hash = p.text_hash", (model,)).fetchall()
    v = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    bits = np.packbits(v > 0, axis=1)
    ones = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
    rng = np.random.default_rng(3)
    print(f"| rows | {' | '.join(f'K={k}' for k in KS)} |\n| --- |{' --- |' * len(KS)}")
    n = len(v) // 8
    while n <= len(v):
        pick = rng.permutation(len(v))[:n]
        vv, bb = v[pick], bits[pick]
        found = np.zeros(len(KS))
        for q in rng.choice(n, a.queries, replace=False):
            s = vv @ vv[q]
            s[q] = -9
            want = np.argpartition(-s, 10)[:10]
            h = ones[np.bitwise_xor(bb, bb[q])].sum(1, dtype=np.int32)
            h[q] = 1 << 20
            for w in want:
                rank = (h <= h[w]).sum()
                found += np.array([rank <= k for k in KS])
        print(f"| {n:,} | {' | '.join(f'{x / (10 * a.queries):.3f}' for x in found)} |", flush=True)
        n *= 2


if __name__ == "__main__":
    main()
