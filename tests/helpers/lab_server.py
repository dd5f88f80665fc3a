#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# lab_server.py -- the network lab's web servers (tests/helpers/netlab.sh):
# one process, one thread per listener, every listener serving the same
# directory read-only.
#
# usage: lab_server.py --root DIR --log FILE [--cert PEM --key PEM] \
#            --ready FILE ADDR:PORT:tls|plain ...
#   tls listeners need --cert and --key (one certificate whose SANs name
#   every lab name and address).  --ready is written once every listener is
#   bound and listening (the lab waits for it).
# Besides the files under DIR:
#   /slow     answers "slow\n" after 1.5 s; counts the requests in flight
#   /peak     the most /slow requests in flight at once since the last
#             /peak (then resets it): 64 concurrent connections show as 64
# Every request is logged, one line "<listener> <client> <method> <path>"
# to --log (the tests look there for a marker to say a server was, or was
# not, reached).
import argparse
import functools
import http.server
import os
import socketserver
import ssl
import sys
import threading
import time

LOCK = threading.Lock()
STATE = {"inflight": 0, "peak": 0}


class Handler(http.server.SimpleHTTPRequestHandler):
    logfile = None
    listener = ""

    def log_message(self, fmt, *args):
        pass

    def note(self):
        with LOCK:
            self.logfile.write("%s %s %s %s\n" % (self.listener,
                               self.client_address[0], self.command,
                               self.path))
            self.logfile.flush()

    def small(self, body):
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def slow(self):
        with LOCK:
            STATE["inflight"] += 1
            STATE["peak"] = max(STATE["peak"], STATE["inflight"])
        time.sleep(1.5)
        with LOCK:
            STATE["inflight"] -= 1
        self.small("slow\n")

    def peak(self):
        with LOCK:
            p = STATE["peak"]
            STATE["peak"] = 0
        self.small("%d\n" % p)

    def route(self):
        self.note()
        path = self.path.split("?", 1)[0]
        if path == "/slow":
            return self.slow() or True
        if path == "/peak":
            return self.peak() or True
        return False

    def do_GET(self):
        if not self.route():
            super().do_GET()

    def do_HEAD(self):
        if not self.route():
            super().do_HEAD()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256
    ctx = None

    # the TLS handshake in the request's own thread: a client that never
    # sends its ClientHello holds its thread, never the listener
    def finish_request(self, request, client_address):
        request.settimeout(30)
        if self.ctx is None:
            return super().finish_request(request, client_address)
        tls = self.ctx.wrap_socket(request, server_side=True)
        try:
            super().finish_request(tls, client_address)
        finally:
            tls.close()

    def handle_error(self, request, client_address):
        pass


def listener(spec, args, log):
    addr, port, kind = spec.rsplit(":", 2)
    handler = type("H", (Handler,), {"logfile": log,
                                      "listener": "%s:%s" % (addr, port)})
    srv = Server((addr, int(port)),
                 functools.partial(handler, directory=args.root))
    if kind == "tls":
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        srv.ctx = ctx
    elif kind != "plain":
        sys.exit("lab_server: %s: the kind is tls or plain" % spec)
    return srv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("listen", nargs="+")
    args = ap.parse_args()
    log = open(args.log, "a", encoding="utf-8")
    servers = [listener(s, args, log) for s in args.listen]
    for srv in servers:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    with open(args.ready, "w", encoding="utf-8") as f:
        f.write("%d\n" % os.getpid())
    threading.Event().wait()


if __name__ == "__main__":
    main()
