#!/usr/bin/env python3
"""A crowd at the sign-in door of a lab server: while N sign-ins with
made-up names arrive at once (from 250 loopback addresses, 127.0.0.x, so
that the per-address limit does not simply turn them away), a signed-in
reader keeps asking for the day page. Prints the page's latency (p50,
p95, max) with and without the crowd, what the sign-ins were answered,
how many passwords the server checked, and the server's memory (RSS
before, at its peak, and 5 s after), with the server's CPU time.

    benches/signin_flood.py BINARY LIBRARY [N]

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
        return res.status, res.getheader("set-cookie") or ""
    except (OSError, http.client.HTTPException):
        return 0, ""
    finally:
        conn.close()


def page_latencies(port, cookie, seconds=None, stop=None):
    lat = []
    end = time.monotonic() + (seconds or 1e9)
    while time.monotonic() < end and not (stop and stop.is_set()):
        t = time.perf_counter()
        status, _ = request(port, "GET", "/", headers={"Cookie": cookie})
        lat.append((time.perf_counter() - t) * 1000)
        if status != 200:
            print(f"  page answered {status}", file=sys.stderr)
    return lat


def summary(lat):
    lat = sorted(lat)
    return f"p50 {statistics.median(lat):.0f} ms, p95 {lat[int(len(lat) * 0.95) - 1]:.0f} ms, max {lat[-1]:.0f} ms ({len(lat)} pages)"


def main():
    binary, library = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    tmp = tempfile.mkdtemp()
    lib = os.path.join(tmp, "lib")
    shutil.copytree(library, lib)
    pw = os.path.join(tmp, "pw")
    with open(pw, "w") as f:
        f.write("correct horse battery\n")
    subprocess.run([binary, "user", "add", "alice", "--password-file", pw, "--library", lib], check=True, capture_output=True)
    server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
    pid = server.pid
    try:
        form = "user=alice&password=correct+horse+battery&next=%2F"
        status, cookie = request(port, "POST", "/login", form, {"Content-Type": "application/x-www-form-urlencoded"})
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
            status, _ = request(port, "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"}, source=source)
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
