"""Which webhook URLs the server may call: never the internal network.

A webhook URL must be ``http`` or ``https``, carry no credentials, and name a
host whose every address is public. Loopback, private, link-local, carrier-grade
NAT (100.64.0.0/10), multicast, unspecified, site-local and reserved addresses
are refused, including IPv4 addresses written in other forms (``2130706433``,
``0x7f.1``) or inside IPv6 addresses (``::ffff:127.0.0.1``, 6to4, Teredo,
NAT64). Networks named in ``ORRERY_WEBHOOK_ALLOW`` are allowed anyway.

The service checks a URL when a game is created; the worker checks the
addresses again when it connects (see :mod:`workers.guarded_http`).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

ALLOW_SETTING = "ORRERY_WEBHOOK_ALLOW"
"""The environment variable that lists the networks allowed anyway."""
LOOPBACK_ALLOW = "127.0.0.0/8,::1/128"
"""The allow list when the API is bound to a loopback address: bots on the same machine."""

_CGNAT = ipaddress.IPv4Network("100.64.0.0/10")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SCHEMES = {"http": 80, "https": 443}


class UnsafeWebhookURL(ValueError):
    """A webhook URL (or an address it leads to) that the policy refuses; the message says why."""


def parse_allow(text: str) -> tuple[Network, ...]:
    """The networks in a comma-separated list of CIDRs (a bare address is a single-address network).

    Raises :class:`ValueError` naming the first entry that is not a network.
    """
    networks: list[Network] = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{ALLOW_SETTING}: {entry!r} is not an IPv4 or IPv6 network in CIDR form") from None
    return tuple(networks)


def is_loopback_host(host: str) -> bool:
    """Whether a bind address (``127.0.0.1``, ``::1``, ``[::1]``, ``localhost``) is a loopback one."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    found = [address.ipv4_mapped, address.sixtofour]
    if address.teredo is not None:
        found.extend(address.teredo)
    if address in _NAT64:
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [a for a in found if a is not None]


def _reason(address: Address) -> str | None:
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("carrier-grade NAT (100.64.0.0/10)", address in _CGNAT),
        ("site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
        ("non-global", not address.is_global),
    )
    return next((name for name, hit in checks if hit), None)


def _literal(host: str) -> tuple[Address, bool] | None:
    """A numeric host's address, and whether it was written in a form other than the standard one."""
    try:
        return ipaddress.ip_address(host), False
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host)), True
    except OSError:
        return None


@dataclasses.dataclass(frozen=True, slots=True)
class WebhookPolicy:
    """The webhook URL policy, with the networks that are allowed anyway."""

    allow: tuple[Network, ...] = ()

    def check_address(self, ip: str | Address) -> None:
        """Refuse ``ip`` with :class:`UnsafeWebhookURL` unless it is public or in the allow list."""
        address = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
        refusal = self._refusal(address)
        if refusal is not None:
            raise UnsafeWebhookURL(f"{address} is {refusal}")

    def _refusal(self, address: Address) -> str | None:
        forms: list[Address] = [address]
        if isinstance(address, ipaddress.IPv6Address):
            forms = [*_embedded_ipv4(address), address]
        if any(form in network for form in forms for network in self.allow):
            return None
        for form in forms:
            reason = _reason(form)
            if reason is not None:
                article = "an" if reason[0] in "aeiou" else "a"
                carried = "" if form == address else f" (it carries the IPv4 address {form})"
                return f"{article} {reason} address{carried}"
        return None

    def addresses(self, host: str, port: int) -> list[Address]:
        """Every address ``host`` resolves to, each checked; the first refused one raises.

        A numeric host (in any form ``inet_aton`` reads) is not looked up. A
        failed lookup raises :class:`socket.gaierror`, which a caller may retry.
        """
        name = host.strip("[]") if host.startswith("[") else host
        if not name or any(c.isspace() or not c.isprintable() for c in name):
            raise UnsafeWebhookURL(f"{host!r} is not a valid host")
        literal = _literal(name)
        if literal is not None:
            found = [literal[0]]
        else:
            try:
                infos = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
            except UnicodeError:
                raise UnsafeWebhookURL(f"{host!r} is not a valid host name") from None
            found = list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in infos))
            if not found:
                raise socket.gaierror(socket.EAI_NONAME, f"{host} resolves to no address")
        for address in found:
            refusal = self._refusal(address)
            if refusal is None:
                continue
            if literal is None:
                raise UnsafeWebhookURL(f"host {host!r} resolves to {refusal}")
            if literal[1]:
                raise UnsafeWebhookURL(f"host {host!r} is {address}, {refusal}")
            raise UnsafeWebhookURL(f"{name} is {refusal}")
        return found

    def check_url(self, url: str, *, resolve: bool = True) -> None:
        """Refuse ``url`` with :class:`UnsafeWebhookURL` unless the server may call it.

        It must be ``http`` or ``https`` with a host and no credentials, and
        (with ``resolve``) every address its host resolves to must pass
        :meth:`check_address`. A host that cannot be resolved is refused.
        """
        if not isinstance(url, str) or any(c.isspace() or not c.isprintable() or c == "\\" for c in url):
            raise UnsafeWebhookURL("the URL has spaces, control characters or backslashes")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise UnsafeWebhookURL(f"the URL cannot be read: {error}") from None
        if parts.scheme not in _SCHEMES or not parts.hostname:
            raise UnsafeWebhookURL("it must be an http:// or https:// URL with a host")
        if "@" in parts.netloc:
            raise UnsafeWebhookURL("it must not carry credentials (user:password@)")
        if not resolve:
            return
        try:
            self.addresses(parts.hostname, port or _SCHEMES[parts.scheme])
        except socket.gaierror:
            raise UnsafeWebhookURL(f"host {parts.hostname!r} cannot be resolved") from None
