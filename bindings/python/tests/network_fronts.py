"""Loopback stand-ins for what sits between an app and its servers on a real network, for test_tls_proxy.py:
a TLS front (HTTPS on 127.0.0.1 with a certificate of a CA made at test time by trustme, relaying the bytes
to the plain-http emulator) and a forward proxy (absolute-URI requests and CONNECT tunnels) that counts what
passes through it. Both listen on free loopback ports, use threads, and stop when closed."""

from __future__ import annotations

import base64
import hashlib
import http.client
import http.server
import selectors
import socket
import socketserver
import ssl
import threading
import urllib.parse
from typing import Dict, List, Tuple

from cryptography import x509
from cryptography.hazmat.primitives import serialization


def _relay(a: socket.socket, b: socket.socket) -> None:
    """Copies bytes both ways until either side closes. A selector, not select(): the test process may hold
    descriptors above 1 024 (libjump keeps a burst's connections), which select() refuses."""
    sockets = [a, b]
    selector = selectors.DefaultSelector()
    try:
        for s in sockets:
            selector.register(s, selectors.EVENT_READ)
        while True:
            ready = selector.select(30)
            if not ready:
                return
            for key, _ in ready:
                s = key.fileobj
                data = s.recv(65536)  # type: ignore[union-attr]
                if not data:
                    return
                (b if s is a else a).sendall(data)
    except (OSError, ValueError):
        return
    finally:
        selector.close()
        for s in sockets:
            try:
                s.close()
            except OSError:
                pass


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class TLSFront:
    """https://127.0.0.1:<port> in front of the emulator, with a certificate for 127.0.0.1 and localhost."""

    def __init__(self, upstream_url: str, ca) -> None:
        parsed = urllib.parse.urlsplit(upstream_url)
        upstream = (parsed.hostname, parsed.port)
        self.leaf = ca.issue_cert("127.0.0.1", "localhost")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.leaf.configure_cert(context)

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                try:
                    tls = context.wrap_socket(self.request, server_side=True)
                except (ssl.SSLError, OSError):
                    return  # the client refused the certificate: that is what some tests want
                _relay(tls, socket.create_connection(upstream, timeout=30))

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def pin(self) -> str:
        """sha256//<base64> of the certificate's SubjectPublicKeyInfo, as pinnedPublicKeys takes it."""
        cert = x509.load_pem_x509_certificate(self.leaf.cert_chain_pems[0].bytes())
        spki = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        return "sha256//" + base64.b64encode(hashlib.sha256(spki).digest()).decode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class CountingProxy:
    """http://127.0.0.1:<port>: forwards absolute-URI requests (counted one by one in `requests`) and opens
    CONNECT tunnels (counted in `tunnels`). With ``tls=ca`` (a trustme CA) it is https://127.0.0.1:<port>
    instead: every accepted connection is TLS first, with a certificate of that CA for 127.0.0.1 and localhost
    (an https:// proxy); a client that refuses the certificate is counted in `refused_handshakes`."""

    def __init__(self, tls=None) -> None:
        self.requests: List[Tuple[str, str]] = []
        self.tunnels: List[str] = []
        self.refused_handshakes = 0
        context = None
        if tls is not None:
            self.leaf = tls.issue_cert("127.0.0.1", "localhost")
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.leaf.configure_cert(context)
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                self.refused = False
                if context is not None:
                    try:
                        self.request = context.wrap_socket(self.request, server_side=True)
                    except (ssl.SSLError, OSError):
                        self.refused = True  # the client refused the certificate (or went away)
                        proxy.refused_handshakes += 1
                super().setup()

            def handle(self) -> None:
                if not self.refused:
                    super().handle()

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_CONNECT(self) -> None:
                host, _, port = self.path.rpartition(":")
                proxy.tunnels.append(self.path)
                try:
                    upstream = socket.create_connection((host, int(port)), timeout=30)
                except OSError:
                    self.send_error(502)
                    return
                self.send_response(200, "Connection established")
                self.end_headers()
                self.close_connection = True
                _relay(self.connection, upstream)

            def forward(self) -> None:
                target = urllib.parse.urlsplit(self.path)
                if not target.scheme:
                    self.send_error(400, "a proxy needs an absolute URI")
                    return
                proxy.requests.append((self.command, target.path))
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
                path = target.path + ("?" + target.query if target.query else "")
                upstream.request(self.command, path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = forward

        self.server = _Server(("127.0.0.1", 0), Handler)
        scheme = "http" if context is None else "https"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class DroppingRelay:
    """http://127.0.0.1:<port> in front of the emulator, keeping client connections alive. Every request is
    forwarded upstream and answered, except that a POST to an armed path arriving on a connection that already
    carried a request is forwarded (the server applies it) and then left unanswered: the connection closes,
    as when an idle timeout or a recycling load balancer races the request. ``counts`` says how many requests
    arrived per path, ``dropped`` how many were left unanswered."""

    def __init__(self, upstream_url: str) -> None:
        parsed = urllib.parse.urlsplit(upstream_url)
        upstream = (parsed.hostname, parsed.port)
        self.counts: Dict[str, int] = {}
        self.dropped = 0
        self._armed: Tuple[str, int] = ("", 0)
        self._lock = threading.Lock()
        relay = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.served = 0

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                pass

            def _forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                path = self.path.split("?", 1)[0]
                with relay._lock:
                    relay.counts[path] = relay.counts.get(path, 0) + 1
                    armed_path, drops = relay._armed
                    drop = self.served > 0 and self.command == "POST" and path == armed_path and drops > 0
                    if drop:
                        relay._armed = (armed_path, drops - 1)
                        relay.dropped += 1
                self.served += 1
                skip = {"host", "content-length", "connection", "accept-encoding", "expect"}
                headers = {k: v for k, v in self.headers.items() if k.lower() not in skip}
                upstream_connection = http.client.HTTPConnection(*upstream, timeout=30)
                try:
                    upstream_connection.request(self.command, self.path, body=body or None, headers=headers)
                    answer = upstream_connection.getresponse()
                    payload = answer.read()
                finally:
                    upstream_connection.close()
                if drop:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.getheader("Content-Type") or "application/octet-stream")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def arm(self, path: str, drops: int = 1) -> None:
        with self._lock:
            self._armed = (path, drops)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
