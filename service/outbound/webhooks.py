"""The webhooks' way out (``service.ports.Outbound``): a host's addresses by the system's
resolver, and a notification POSTed with urllib3 to an address the caller checked
(``service.webhooks.resolve``): the connection goes to that address,
not to whatever the name resolves to a moment later (DNS rebinding), while the ``Host``
header, TLS's SNI and the certificate check use the URL's host. No redirects are
followed (a 3xx is an answer like any other non-2xx) and the answer's body is not read.
A whole try is bounded by the timeout: a target that trickles its answer has its
connection cut when the time is up (a socket timeout alone bounds each read only)."""

import contextlib
import http.client
import socket
import threading
from urllib.parse import urlsplit

import certifi
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError


def _cut(conn) -> None:
    sock = getattr(conn, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


class HttpOutbound:
    def lookup(self, host: str, port: int) -> list[str]:
        """The addresses ``host`` resolves to, by the system's resolver."""
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        return [info[4][0] for info in infos]

    def post(self, url: str, host: str, addresses: list[str], body: bytes, headers: dict,
             timeout_s: float) -> int:  # fmt: skip
        """The target's status; OSError when none came in ``timeout_s`` (refused, timed
        out, cut, TLS). ``host``: the URL's host in ASCII (IDNA)."""
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        named = f"[{host}]" if ":" in host else host  # an IPv6 literal
        host_header = named if parts.port is None else f"{named}:{parts.port}"
        last: Exception | None = None
        for address in addresses[:3]:
            if parts.scheme == "https":
                conn = HTTPSConnection(
                    address, port, timeout=timeout_s, server_hostname=host,
                    assert_hostname=host, cert_reqs="CERT_REQUIRED", ca_certs=certifi.where(),
                )  # fmt: skip
            else:
                conn = HTTPConnection(address, port, timeout=timeout_s)
            timer = threading.Timer(timeout_s, _cut, args=(conn,))
            timer.daemon = True
            timer.start()
            try:
                conn.request("POST", path, body=body, headers={**headers, "Host": host_header})
                return conn.getresponse().status
            except (HTTPError, OSError, http.client.HTTPException) as e:
                last = e
                # the time is up (the timer cut the connection, or the socket's own timeout,
                # of the same length, came first): no other address either
                if not timer.is_alive() or isinstance(e, TimeoutError):
                    raise OSError(f"no answer within {timeout_s:g} s") from None
            finally:
                timer.cancel()
                conn.close()
        raise OSError(f"{type(last).__name__}: {last}" if last else "no address")
