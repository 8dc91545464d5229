#!/usr/bin/env python3
"""A crowd at the sign-in door of a lab server: while N sign-ins with
made-up names arrive at once (from 250 loopback addresses, 127.0.0.x, so
that the per-address limit does not simply turn them away), a signed-in
reader keeps asking for the day page. Prints the page's latency (p50,
p95, max) with and without the crowd, what the sign-ins were answered,
how many passwords the server checked, and the server's memory (RSS
before, at its peak, and 5 s after), with the server's CPU time.

    benches/signin_flood.py BINARY LIBRARY [N]

With --fill, the sign-in table filled from many addresses instead: N
(5,500) failed sign-ins with made-up names, each from its own loopback
address (127.1.x.y, 250 to a /24), 64 at a time; then the right password
from a network the flood did not use and from one it did, and what a
signed-in reader gets (docs/reliability.md, "The morning, turned against
the lab"):

    benches/signin_flood.py --fill BINARY LIBRARY [N]

LIBRARY is copied; an account is added to the copy. Each BINARY is run
alone: run it for the build before and after a change on one machine,
and compare (docs/reliability.md, "A crowd at the sign-in door").
"""

import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor


def rss_mib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_secs(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(port, method, path, body=None, headers=None, source="127.0.0.1", timeout=120):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        h = {"Host": f"127.0.0.1:{port}"}
        h.update(headers or {})
        conn.request(method, path, body=body, headers=h)
        res = conn.getresponse()
        res.read()
        return res.status, res.getheader("set-cookie") or "", res.getheader("retry-after") or ""
    except (OSError, http.client.HTTPException):
        return 0, "", ""
    finally:
        conn.close()


def page_latencies(port, cookie, seconds=None, stop=None):
    lat = []
    end = time.monotonic() + (seconds or 1e9)
    while time.monotonic() < end and not (stop and stop.is_set()):
        t = time.perf_counter()
        status, _, _ = request(port, "GET", "/", headers={"Cookie": cookie})
        lat.append((time.perf_counter() - t) * 1000)
        if status != 200:
            print(f"  page answered {status}", file=sys.stderr)
    return lat


def summary(lat):
    lat = sorted(lat)
    return f"p50 {statistics.median(lat):.0f} ms, p95 {lat[int(len(lat) * 0.95) - 1]:.0f} ms, max {lat[-1]:.0f} ms ({len(lat)} pages)"


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def start(binary, library):
    """A copy of LIBRARY with an account, served; (temp dir, server, port)."""
    tmp = tempfile.mkdtemp()
    lib = os.path.join(tmp, "lib")
    shutil.copytree(library, lib)
    pw = os.path.join(tmp, "pw")
    with open(pw, "w") as f:
        f.write("correct horse battery\n")
    subprocess.run([binary, "user", "add", "alice", "--password-file", pw, "--library", lib], check=True, capture_output=True)
    server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    return tmp, server, int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))


def fill(binary, library, n):
    tmp, server, port = start(binary, library)
    errors = []
    threading.Thread(target=lambda: errors.extend(server.stderr), daemon=True).start()
    try:
        right = "user=alice&password=correct+horse+battery&next=%2F"
        status, cookie, _ = request(port, "POST", "/login", right, FORM)
        assert status == 303, status
        cookie = cookie.split(";")[0]
        answers = {}
        lock = threading.Lock()

        def guess(i):
            source = f"127.1.{i // 250}.{1 + i % 250}"
            status, _, _ = request(port, "POST", "/login", f"user=made-up-{i}&password=guess&next=%2F", FORM, source=source)
            with lock:
                answers[status] = answers.get(status, 0) + 1

        t0 = time.monotonic()
        with ThreadPoolExecutor(64) as pool:
            list(pool.map(guess, range(n)))
        took = time.monotonic() - t0
        fresh = request(port, "POST", "/login", right, FORM, source="127.9.0.1")
        flooded = request(port, "POST", "/login", right, FORM, source="127.1.0.77")
        reader = request(port, "GET", "/", headers={"Cookie": cookie})
        time.sleep(0.5)
        checked = sum("sign-in failed" in line for line in errors)
        wait = lambda r: f" (Retry-After {r[2]} s)" if r[2] else ""
        print(f"{os.path.basename(binary)}: {n} failed sign-ins from {n} addresses ({(n + 249) // 250} /24s), answered in {took:.1f} s: {dict(sorted(answers.items()))}")
        print(f"  passwords checked: {checked}")
        print(f"  then alice's right password from a new network: {fresh[0]}{wait(fresh)}; from a network of the flood: {flooded[0]}{wait(flooded)}")
        print(f"  a reader signed in before: {reader[0]}")
    finally:
        server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if sys.argv[1] == "--fill":
        return fill(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5500)
    binary, library = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    tmp, server, port = start(binary, library)
    pid = server.pid
    try:
        form = "user=alice&password=correct+horse+battery&next=%2F"
        status, cookie, _ = request(port, "POST", "/login", form, FORM)
        assert status == 303, status
        cookie = cookie.split(";")[0]
        request(port, "GET", "/", headers={"Cookie": cookie})
        quiet = page_latencies(port, cookie, seconds=5)
        before = rss_mib(pid)
        cpu0 = cpu_secs(pid)

        answers = {}
        lock = threading.Lock()
        go = threading.Event()

        def guess(i):
            source = f"127.0.0.{2 + i % 250}"
            body = f"user=made-up-{i}&password=guess-{i}&next=%2F"
            go.wait()
            status, _, _ = request(port, "POST", "/login", body, FORM, source=source)
            with lock:
                answers[status] = answers.get(status, 0) + 1

        crowd = [threading.Thread(target=guess, args=(i,)) for i in range(n)]
        for t in crowd:
            t.start()
        stop = threading.Event()
        loaded = []
        reader = threading.Thread(target=lambda: loaded.extend(page_latencies(port, cookie, stop=stop)))
        t0 = time.monotonic()
        go.set()
        reader.start()
        peak = before
        while any(t.is_alive() for t in crowd):
            peak = max(peak, rss_mib(pid))
            time.sleep(0.05)
        crowd_secs = time.monotonic() - t0
        stop.set()
        reader.join()
        cpu = cpu_secs(pid) - cpu0
        time.sleep(5)
        after = rss_mib(pid)
        server.terminate()
        err = server.communicate(timeout=30)[1]
        checked = err.count("sign-in failed")
        print(f"{os.path.basename(binary)}: {n} sign-ins from 250 addresses, answered in {crowd_secs:.1f} s: {dict(sorted(answers.items()))}")
        print(f"  passwords checked: {checked}; server CPU during the crowd {cpu:.1f} s")
        print(f"  day page, quiet:      {summary(quiet)}")
        print(f"  day page, the crowd:  {summary(loaded) if loaded else 'none answered'}")
        print(f"  RSS {before:.0f} MiB before, {peak:.0f} MiB at the peak, {after:.0f} MiB 5 s after")
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
