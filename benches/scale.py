"""paperscout's index at N papers, side by side with hnswlib on the same vectors.

Called by benches/scale.sh (which makes the venv and builds the binary):
    python benches/scale.py --source LIB --n N --work DIR --bin target/release/paperscout

Vectors: the source library's real MiniLM vectors, then noisy copies of them
(a real vector plus N(0, 0.032^2) per dimension, normalised) up to N. Papers
get synthetic new-style ids, their source's categories and dates, and are
imported with their vectors from a Parquet export (`ingest --no-embed`), the last 1,500 as a later
day's listing (the daily increment). Prints one markdown table row per figure.
"""

import argparse, json, os, resource, sqlite3, statistics, subprocess, time, urllib.request

import hnswlib
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

DIM = 384
DAY = 1500


def timed(cmd, **kw):
    """Runs cmd; returns (seconds wall, CPU seconds, peak RSS MB, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024, out.stdout


def peak_rss(cmd):
    """Peak RSS (MB) of one run of cmd, from /usr/bin/time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def load_source(lib):
    db = sqlite3.connect(f"file:{lib}/library.sqlite?mode=ro", uri=True)
    model = db.execute("SELECT value FROM meta WHERE key = 'model'").fetchone()[0]
    rows = db.execute(
        "SELECT p.subjects, p.first_date, v.vec FROM papers p JOIN vectors v "
        "ON v.model = ? AND v.text_hash = p.text_hash ORDER BY p.rowid", (model,)).fetchall()
    subjects = [json.loads(r[0]) for r in rows]
    dates = [r[1] or "2025-01-01" for r in rows]
    vecs = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), DIM)
    return model, subjects, dates, vecs


def synth(vecs, n, seed=12345):
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    m = min(n, len(vecs))
    out[:m] = vecs[:m]
    for s in range(m, n, 100_000):
        e = min(n, s + 100_000)
        src = rng.integers(0, len(vecs), e - s)
        v = vecs[src] + rng.normal(0, 0.032, (e - s, DIM)).astype(np.float32)
        out[s:e] = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out


MONTHS = [f"{y:02d}{m:02d}" for y in range(15, 99) for m in range(1, 13)]


def paper_id(i):
    # YYMM.NNNNN (five digits from 1501 on): unique for any N this runs at.
    return f"{MONTHS[i // 99_999]}.{i % 99_999 + 1:05d}"


def write_papers(path, model, ids, subjects, dates, vecs, day=None):
    """The papers as a paperscout Parquet export (src/parquet.rs's columns),
    100,000 rows at a time: seconds a million, where JSON lines of 384
    floats took most of an hour at 3 M."""
    schema = pa.schema([
        ("id", pa.string()), ("version", pa.int32()), ("title", pa.string()), ("authors", pa.list_(pa.string())),
        ("abstract", pa.string()), ("categories", pa.list_(pa.string())), ("comments", pa.string()),
        ("journal_ref", pa.string()), ("date", pa.string()), ("model", pa.string()),
        ("vector", pa.list_(pa.float32(), DIM)),
    ])
    ids = list(ids)
    with pq.ParquetWriter(path, schema) as w:
        for s in range(0, len(ids), 100_000):
            part = ids[s:s + 100_000]
            n = len(part)
            cols = {
                "id": [paper_id(i) for i in part], "version": [None] * n,
                "title": [f"Synthetic paper {i}" for i in part], "authors": [["A. Author"]] * n,
                "abstract": [f"Abstract of synthetic paper {i}." for i in part],
                "categories": [subjects[i % len(subjects)] for i in part], "comments": [None] * n,
                "journal_ref": [None] * n, "date": [day or dates[i % len(dates)] for i in part], "model": [model] * n,
            }
            arrays = [pa.array(cols[f.name], type=f.type) for f in schema if f.name != "vector"]
            flat = np.ascontiguousarray(vecs[s:s + n], dtype=np.float32).reshape(-1)
            arrays.append(pa.FixedSizeListArray.from_arrays(pa.array(flat), DIM))
            w.write_table(pa.Table.from_arrays(arrays, schema=schema), row_group_size=4096)


def p50(xs):
    return statistics.median(xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--no-rebuild", action="store_true", help="skip timing a from-scratch `doctor --rebuild-index`")
    ap.add_argument("--no-hnswlib", action="store_true", help="skip hnswlib (its 3 M build takes ~1,000 CPU-s)")
    ap.add_argument("--build-only", action="store_true",
                    help="import, build and add the day, then stop (the rows are kept for the next run)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    model, subjects, dates, real = load_source(a.source)
    vecs = synth(real, a.n)
    base, day = a.n - DAY, a.n
    lib = os.path.join(a.work, f"lib-{a.n}")
    rows = []
    # The build phase's rows outlive its run: at 3 M it takes most of an
    # hour, and the query phase may run later (or again) on the same library.
    built_rows = os.path.join(a.work, "build-rows.json")

    def row(what, ours, theirs=""):
        rows.append(f"| {what} | {ours} | {theirs} |")

    def held():
        with sqlite3.connect(f"file:{lib}/library.sqlite?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM papers").fetchone()[0]

    if os.path.exists(built_rows):
        with open(built_rows) as f:
            rows = json.load(f)
    # Each step is skipped when an earlier run (perhaps cut short after it)
    # has done it: at 3 M the build takes most of an hour.
    if not os.path.exists(os.path.join(lib, "library.sqlite")):
        for name, ids, part, when in [("base", range(base), vecs[:base], None),
                                      ("day", range(base, day), vecs[base:], "2099-01-05")]:
            write_papers(f"{a.work}/{name}.parquet", model, ids, subjects, dates, part, day=when)
        w, c, r, _ = timed([a.bin, "ingest", f"{a.work}/base.parquet", "--no-embed", "--library", lib])
        os.remove(f"{a.work}/base.parquet")
        row(f"import {base} papers with vectors (`ingest --no-embed`)", f"{w:.0f} s wall, {c:.0f} CPU-s")
        if not a.no_rebuild:
            w, c, r, _ = timed([a.bin, "doctor", "--rebuild-index", "--library", lib])
            row("index build from scratch (`doctor --rebuild-index`)", f"{w:.0f} s wall, {c:.0f} CPU-s, peak RSS {r:.0f} MB")
        with open(built_rows, "w") as f:
            json.dump(rows, f)
    if held() < day:
        w, c, r, out = timed([a.bin, "ingest", f"{a.work}/day.parquet", "--no-embed", "--library", lib])
        row(f"add a day's {DAY} papers (vectors imported; append + index insert)", f"{w:.1f} s wall, {c:.1f} CPU-s")
        with open(built_rows, "w") as f:
            json.dump(rows, f)
    if a.build_only:
        print("\n".join(rows))
        return

    rng = np.random.default_rng(7)
    qs = rng.choice(base, 50, replace=False)
    ids = [paper_id(int(q)) for q in qs]

    # Another day through the binary under test: append to the flat file,
    # insert into the index, extend the sketch. Its vectors join the exact
    # reference, since queries may find them.
    noisy = np.random.default_rng(a.n + 1)
    more = real[noisy.integers(0, len(real), DAY)] + noisy.normal(0, 0.032, (DAY, DIM)).astype(np.float32)
    more /= np.linalg.norm(more, axis=1, keepdims=True)
    if held() < day + DAY:
        # A library imported by a binary older than the sketch gets it from
        # its first query; with a current one this is an ordinary query.
        w, c, r, _ = timed([a.bin, "like", ids[0], "-k", "10", "--library", lib])
        row("first `like ID` after the build (writes the sketch when the build did not)", f"{w:.1f} s wall, {c:.1f} CPU-s")
        write_papers(f"{a.work}/day2.parquet", model, range(day, day + DAY), subjects, dates, more, day="2099-01-06")
        w, c, r, out = timed([a.bin, "ingest", f"{a.work}/day2.parquet", "--no-embed", "--library", lib])
        os.remove(f"{a.work}/day2.parquet")
        row(f"add another day's {DAY} papers (vectors imported; append + index insert + sketch)", f"{w:.1f} s wall, {c:.1f} CPU-s")
        with open(built_rows, "w") as f:
            json.dump(rows, f)
    # else: a run before this one added it (and kept its row).
    exact = np.concatenate([vecs, more])  # row i of the library is paper i (imported in order)
    del vecs

    # The goal is stated for a warm page cache: read the derived files once,
    # as the previous day's queries would have (the runs before this one may
    # have pushed them out).
    for root, _, files in os.walk(os.path.join(lib, "derived")):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                while f.read(1 << 24):
                    pass
    for flag, name in [([], "one-shot `like ID` (bit sketch, rescored in f32)"), (["--approx"], "one-shot `like ID --approx` (HNSW index)")]:
        walls, hits = [], 0
        for q, pid in zip(qs, ids):
            t = time.perf_counter()
            out = subprocess.run([a.bin, "like", pid, "-k", "10", "--json", "--library", lib] + flag,
                                 check=True, capture_output=True, text=True).stdout
            walls.append(time.perf_counter() - t)
            got = {json.loads(l)["id"] for l in out.splitlines()}
            s = exact @ exact[q]
            s[q] = -2
            want = {paper_id(int(i)) for i in np.argpartition(-s, 10)[:10]}
            hits += len(got & want)
        rss = peak_rss([a.bin, "like", ids[0], "-k", "10", "--library", lib] + flag)
        row(name, f"p50 {p50(walls) * 1e3:.0f} ms, recall@10 {hits / 500:.3f}, peak RSS {rss:.0f} MB")

    port = 18000 + a.n % 1000
    srv = subprocess.Popen([a.bin, "serve", "--addr", f"127.0.0.1:{port}", "--library", lib],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # A server without accounts answers whoever shows the key it printed.
    printed = srv.stdout.readline()
    key = printed.split("?token=")[1].split()[0] if "?token=" in printed else None

    def fetch(path, timeout):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
        if key:
            req.add_header("Authorization", f"Bearer {key}")
        return urllib.request.urlopen(req, timeout=timeout).read()

    try:
        for _ in range(600):
            try:
                fetch(f"/api/like/{ids[0]}", 60)
                break
            except Exception:
                time.sleep(0.5)
        # The first query waited for the server's calibration (the index's
        # recall measured at each search width; the sketch if none reaches it).
        stats = json.loads(fetch("/api/stats", 600))
        how = stats.get("like_search", {})
        walls, hits = [], 0
        for k in range(200):
            q = qs[k % len(qs)]
            t = time.perf_counter()
            body = fetch(f"/api/like/{ids[k % len(ids)]}?k=10", 60)
            walls.append(time.perf_counter() - t)
            if k < len(qs):
                got = {p["id"] for p in json.loads(body)}
                s = exact @ exact[q]
                s[q] = -2
                want = {paper_id(int(i)) for i in np.argpartition(-s, 10)[:10]}
                hits += len(got & want)
        walls.sort()
        engine = how.get("engine", "?") + (f", searched {how['search_width']} wide" if how.get("search_width") else "")
        row("served `/api/like/ID?k=10` (200 requests, one client; engine chosen by the server's calibration)",
            f"p50 {p50(walls) * 1e3:.1f} ms, p99 {walls[int(len(walls) * 0.99) - 1] * 1e3:.1f} ms, recall@10 {hits / (10 * len(qs)):.3f} "
            f"({engine}; its own sample: {how.get('recall_at_10', 0):.3f})")
    finally:
        srv.terminate()
        srv.wait()

    print(f"\n### {a.n} vectors\n\n| what | paperscout | hnswlib (M=16, ef_c=128, ef=64, f32) |\n| --- | --- | --- |")
    for r in rows:
        print(r)
    if a.no_hnswlib:
        return
    # hnswlib on the same vectors, same machine, same run.
    t, c0 = time.perf_counter(), time.process_time()
    h = hnswlib.Index(space="ip", dim=DIM)
    h.init_index(max_elements=len(exact), M=16, ef_construction=128)
    h.add_items(exact, np.arange(len(exact)), num_threads=os.cpu_count())
    build = (time.perf_counter() - t, time.process_time() - c0)
    h.save_index(f"{a.work}/hnswlib-{a.n}.bin")
    del h
    t, c0 = time.perf_counter(), time.process_time()
    h = hnswlib.Index(space="ip", dim=DIM)
    h.load_index(f"{a.work}/hnswlib-{a.n}.bin")
    load = (time.perf_counter() - t, time.process_time() - c0)
    os.remove(f"{a.work}/hnswlib-{a.n}.bin")
    h.set_ef(64)
    walls, hits = [], 0
    for q in qs:
        t = time.perf_counter()
        labels, _ = h.knn_query(exact[q], k=11)
        walls.append(time.perf_counter() - t)
        s = exact @ exact[q]
        s[q] = -2
        want = set(np.argpartition(-s, 10)[:10].tolist())
        hits += len(want & set(int(x) for x in labels[0] if x != q))
    print(f"| hnswlib: build / load a saved index / query in process | | build {build[0]:.0f} s wall, {build[1]:.0f} CPU-s; "
          f"load {load[0]:.2f} s; query p50 {p50(walls) * 1e6:.0f} µs, recall@10 {hits / 500:.3f} |")


if __name__ == "__main__":
    main()
