#!/usr/bin/env python3
"""Two paperscout binaries on the same library, alternated run by run, so
that a change meant to keep behaviour (a refactor) shows no slowdown:
`like`, `daily`, `search` and `ingest --no-embed`, each run's wall time
and the child's CPU time (user + sys, getrusage).

    benches/compare_binaries.py BEFORE AFTER LIBRARY JSONL [ROUNDS]

LIBRARY must hold vectors, listing days and seeds (`daily` ranks its newest
day); JSONL is paper metadata (its ids are the `like` queries, and it is
ingested into a new library per round). Prints a Markdown table
(docs/benchmarks.md, "The workflow layer: before and after").
"""

import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    before, after, lib, jsonl = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    ids = [json.loads(line)["id"] for line in open(jsonl) if line.strip()]
    random.seed(7)
    queries = random.sample(ids, min(20, len(ids)))
    binaries = [("before", before), ("after", after)]
    results = {}

    def record(what, name, measured):
        results.setdefault(what, {}).setdefault(name, []).append(measured)

    for r in range(rounds):
        for name, exe in binaries if r % 2 == 0 else binaries[::-1]:
            for q in queries:
                record(f"like ID -k 10 ({len(queries)} ids)", name, run([exe, "like", q, "-k", "10", "--library", lib]))
            for _ in range(5):
                record("daily --top 20", name, run([exe, "daily", "--top", "20", "--library", lib]))
                record("search graph neural networks --no-meaning", name,
                       run([exe, "search", "graph", "neural", "networks", "--no-meaning", "--library", lib]))
            scratch = tempfile.mkdtemp()
            try:
                record(f"ingest --no-embed ({len(ids)} lines)", name,
                       run([exe, "ingest", "--no-embed", jsonl, "--library", f"{scratch}/lib"]))
            finally:
                shutil.rmtree(scratch)
    print("| command | runs each | before wall (median) | after wall (median) | before CPU (mean) | after CPU (mean) | after/before (wall) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for what, by in results.items():
        b, a = by["before"], by["after"]
        bw, aw = statistics.median(x[0] for x in b), statistics.median(x[0] for x in a)
        bc, ac = statistics.mean(x[1] for x in b), statistics.mean(x[1] for x in a)
        print(f"| `{what}` | {len(b)} | {bw * 1e3:.0f} ms | {aw * 1e3:.0f} ms | {bc * 1e3:.0f} ms | {ac * 1e3:.0f} ms | {aw / bw:.2f} |")


if __name__ == "__main__":
    main()
