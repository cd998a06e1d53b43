"""POSTs a webhook notification (``service.webhooks.Sender``) with urllib3, to an address
the caller checked (``service.webhooks.resolve``): the connection goes to that address,
not to whatever the name resolves to a moment later (DNS rebinding), while the ``Host``
header, TLS's SNI and the certificate check use the URL's host. No redirects followed:
a 3xx is an answer like any other non-2xx."""

from urllib.parse import urlsplit

import certifi
import urllib3


class UrllibSender:
    def __init__(self):
        self._pools: dict[tuple, urllib3.HTTPConnectionPool] = {}

    def _pool(self, scheme: str, address: str, port: int, host: str, timeout_s: float):
        key = (scheme, address, port, host)
        pool = self._pools.get(key)
        if pool is None:
            timeout = urllib3.Timeout(connect=min(3.0, timeout_s), read=timeout_s)
            if scheme == "https":
                pool = urllib3.HTTPSConnectionPool(
                    address, port, timeout=timeout, maxsize=1, retries=False,
                    cert_reqs="CERT_REQUIRED", ca_certs=certifi.where(),
                    server_hostname=host, assert_hostname=host,
                )  # fmt: skip
            else:
                pool = urllib3.HTTPConnectionPool(
                    address, port, timeout=timeout, maxsize=1, retries=False
                )
            if len(self._pools) > 256:
                self._pools.clear()
            self._pools[key] = pool
        return pool

    def post(self, url: str, addresses: list[str], body: bytes, headers: dict,
             timeout_s: float) -> int:  # fmt: skip
        """The target's status; OSError when none came (refused, timed out, TLS)."""
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host_header = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
        last: Exception | None = None
        for address in addresses[:3]:
            pool = self._pool(parts.scheme, address, port, parts.hostname, timeout_s)
            try:
                r = pool.urlopen("POST", path, body=body, headers={**headers,
                                 "Host": host_header}, redirect=False,
                                 preload_content=True, release_conn=True)  # fmt: skip
                return r.status
            except urllib3.exceptions.HTTPError as e:
                last = e
        raise OSError(str(last) if last else "no address")
