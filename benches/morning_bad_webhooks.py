#!/usr/bin/env python3
"""A lab's morning with bad webhooks: 50 readers, the first five by name
(so the first ranked) behind webhooks that hang, answer 429 with
Retry-After: 60, redirect to themselves, answer 500 with a body that never
ends, or refuse the connection; the other 45 behind a webhook that answers
at once. Prints when each good reader's digest arrived, counted from the
server's start (`serve --morning 00:00` runs the morning at once), and
what the library recorded as delivered.

    benches/morning_bad_webhooks.py BINARY LIBRARY [WAIT_SECONDS]

LIBRARY (the demo library: `scripts/run` makes target/demo-library) is
copied; the readers are written into the copy, each with the library's
own seeds. Run it for the build before and after a change on one machine
(docs/reliability.md, "The morning, turned against the lab").
"""

import http.server
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ARRIVED = {}


class Good(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        ARRIVED.setdefault(self.path, time.monotonic())
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class Bad(http.server.BaseHTTPRequestHandler):
    kind = ""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.kind == "hang":
            time.sleep(600)
        elif self.kind == "slow-down":
            self.send_response(429)
            self.send_header("Retry-After", "60")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.kind == "redirect":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.kind == "endless":
            self.send_response(500)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"1000\r\n" + b"x" * 4096 + b"\r\n"
            end = time.monotonic() + 600
            try:
                while time.monotonic() < end:
                    self.wfile.write(chunk)
            except OSError:
                pass

    def log_message(self, *args):
        pass


def serve(handler):
    s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    s.daemon_threads = True
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{s.server_address[1]}"


def main():
    binary, library = sys.argv[1], sys.argv[2]
    wait = float(sys.argv[3]) if len(sys.argv) > 3 else 600
    tmp = tempfile.mkdtemp()
    lib = os.path.join(tmp, "lib")
    shutil.copytree(library, lib)
    names = [f"u{i:02}" for i in range(50)]
    bad = []
    for kind in ["hang", "slow-down", "redirect", "endless"]:
        bad.append(serve(type(kind, (Bad,), {"kind": kind})) + "/hook")
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    bad.append(f"http://127.0.0.1:{closed.getsockname()[1]}/hook")
    closed.close()
    good = serve(Good)
    db = sqlite3.connect(os.path.join(lib, "library.sqlite"))
    for i, n in enumerate(names):
        db.execute("INSERT INTO users (name, hash, feed, created) VALUES (?, 'x', ?, '2026-01-01')", (n, n))
        db.execute(
            "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin) "
            "SELECT ? || '/default', key, title, abstract, text_hash, weight, negative, added, origin FROM seeds WHERE profile = 'default'",
            (n,),
        )
        url = bad[i] if i < 5 else f"{good}/hook/{n}"
        db.execute("INSERT INTO channels (user, chat_url, chat_format) VALUES (?, ?, 'slack')", (n, url))
    db.commit()
    db.close()
    args = [binary, "serve", "--addr", "127.0.0.1:0", "--library", lib, "--morning", "00:00"]
    if "--allow-webhook-host" in subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout:
        args += ["--allow-webhook-host", "127.0.0.1"]
    t0 = time.monotonic()
    server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while len(ARRIVED) < 45 and time.monotonic() - t0 < wait:
            time.sleep(0.05)
        at = sorted(t - t0 for t in ARRIVED.values())
        cpu = 0.0
        with open(f"/proc/{server.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        time.sleep(2)
        server.kill()
        db = sqlite3.connect(os.path.join(lib, "library.sqlite"))
        delivered = [r[0] for r in db.execute("SELECT user FROM deliveries ORDER BY user")]
        print(f"{os.path.basename(binary)}: {len(at)} of 45 good readers delivered", end="")
        if at:
            print(f"; first {at[0]:.1f} s, median {at[len(at) // 2]:.1f} s, last {at[-1]:.1f} s after the server started", end="")
        print(f" (server CPU {cpu:.1f} s)")
        print(f"  recorded as delivered: {len(delivered)}, of the bad five: {[u for u in delivered if u in names[:5]]}")
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
