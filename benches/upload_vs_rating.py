#!/usr/bin/env python3
"""A large seed upload and a rating sent while it runs: how long the rating
waits, how long the upload takes, what it answers, and whether the server
is still writing after its answer (the seeds the library holds 10 s later).

    benches/upload_vs_rating.py BINARY LIBRARY CORPUS.jsonl.gz [N]

N (default 1000) entries of CORPUS become a BibTeX export without arXiv
ids (each needs the model); LIBRARY is copied. Run it for the build before
and after a change on one machine (docs/reliability.md).
"""

import gzip
import http.client
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time


def main():
    binary, library, corpus = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    tmp = tempfile.mkdtemp()
    lib = os.path.join(tmp, "lib")
    shutil.copytree(library, lib)
    bib = []
    with gzip.open(corpus, "rt") as f:
        for i, line in enumerate(f):
            if i >= n:
                break
            p = json.loads(line)
            clean = lambda s: re.sub(r"[{}\\%@#$\"]", " ", s)
            bib.append(f"@article{{e{i},\n  title = {{{clean(p['title'])}}},\n  abstract = {{{clean(p['abstract'])}}},\n  year = {{2025}}\n}}\n")
    body_file = "".join(bib).encode()
    server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
    key = line.split("?token=")[1].split()[0] if "?token=" in line else None
    auth = {"Authorization": f"Bearer {key}"} if key else {}

    def call(method, path, body=None, headers=None, timeout=300):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        h = {"Host": f"127.0.0.1:{port}", **auth, **(headers or {})}
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        return r.status, r.read().decode(errors="replace")

    try:
        for _ in range(600):
            status, stats = call("GET", "/api/stats")
            if status == 200 and json.loads(stats).get("model_status") == "ready":
                break
            time.sleep(0.2)
        token = json.loads(call("GET", "/api/token")[1])["csrf"]
        boundary = "----bench"
        form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\nreading\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bib\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + body_file + f"\r\n--{boundary}--\r\n".encode()
        result = {}

        def upload():
            t = time.perf_counter()
            result["upload"] = call("POST", "/api/seeds/upload", form, {"Content-Type": f"multipart/form-data; boundary={boundary}", "X-CSRF-Token": token})
            result["upload_s"] = time.perf_counter() - t

        up = threading.Thread(target=upload)
        up.start()
        time.sleep(2)
        t = time.perf_counter()
        rating = call("POST", "/api/ratings", json.dumps({"id": json.loads(call("GET", "/api/daily?top=1")[1])[0]["id"], "rating": 1}),
                      {"Content-Type": "application/json", "X-CSRF-Token": token})
        rating_s = time.perf_counter() - t
        up.join()
        db = sqlite3.connect(f"file:{lib}/library.sqlite?mode=ro", uri=True)
        count = lambda: db.execute("SELECT count(*) FROM seeds WHERE profile = 'reading'").fetchone()[0]
        at_answer = count()
        time.sleep(10)
        later = count()
        status, text = result["upload"]
        print(f"{os.path.basename(binary)}: {n} entries")
        print(f"  rating sent 2 s into the upload: {rating[0]} after {rating_s * 1000:.0f} ms")
        print(f"  upload: {status} after {result['upload_s']:.1f} s: {text[:160]}")
        print(f"  seeds of the profile at the upload's answer {at_answer}, 10 s later {later}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
