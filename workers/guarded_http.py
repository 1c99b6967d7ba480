"""HTTP for webhook deliveries that connects only to addresses the webhook policy allows.

The host is resolved once, every address is checked, and the socket connects
to a checked address itself, so a name that resolves elsewhere between the
check and the connection (DNS rebinding) cannot reach the internal network.
The Host header and TLS (SNI and certificate) still use the URL's host name.
A refused address raises :class:`service.webhook_policy.UnsafeWebhookURL`
before any connection is made. Proxies from the environment are not used.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import connection

from service.webhook_policy import UnsafeWebhookURL, WebhookPolicy


def _connect(conn: HTTPConnection, policy: WebhookPolicy) -> socket.socket:
    """What urllib3's ``_new_conn`` does, but only to the checked addresses of the host."""
    try:
        addresses = policy.addresses(conn._dns_host, conn.port)
    except socket.gaierror as error:
        raise NameResolutionError(conn.host, conn, error) from error
    failure: OSError | None = None
    for address in addresses:
        try:
            sock = connection.create_connection(
                (str(address), conn.port),
                conn.timeout,
                source_address=conn.source_address,
                socket_options=conn.socket_options,
            )
        except OSError as error:
            failure = error
            continue
        peer = ipaddress.ip_address(sock.getpeername()[0])
        if peer != address:
            sock.close()
            raise UnsafeWebhookURL(f"the connection reached {peer}, not the checked address {address}")
        return sock
    if isinstance(failure, TimeoutError):
        raise ConnectTimeoutError(conn, f"Connection to {conn.host} timed out. (connect timeout={conn.timeout})")
    raise NewConnectionError(conn, f"Failed to establish a new connection: {failure}")


def _pool_classes(policy: WebhookPolicy) -> dict[str, type[HTTPConnectionPool]]:
    class GuardedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, policy)

    class GuardedHTTPSConnection(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, policy)

    class GuardedHTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    return {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}


class GuardedAdapter(HTTPAdapter):
    """A ``requests`` adapter whose connections obey a :class:`WebhookPolicy`."""

    def __init__(self, policy: WebhookPolicy, **kwargs: Any) -> None:
        self.policy = policy
        super().__init__(**kwargs)

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False, **pool_kwargs: Any) -> None:
        super().init_poolmanager(connections, maxsize, block, **pool_kwargs)
        self.poolmanager.pool_classes_by_scheme = _pool_classes(self.policy)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        raise UnsafeWebhookURL("webhook deliveries do not go through proxies")


def session(policy: WebhookPolicy) -> requests.Session:
    """A session for webhook deliveries: guarded connections, no proxies from the environment."""
    guarded = requests.Session()
    guarded.trust_env = False
    adapter = GuardedAdapter(policy)
    guarded.mount("http://", adapter)
    guarded.mount("https://", adapter)
    return guarded
