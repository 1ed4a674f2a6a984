"""The addresses a phone on the local network can open a station at.

A station bound to every interface (``--host 0.0.0.0`` or ``::``) is reached at this
machine's own addresses, never at ``127.0.0.1`` (which, on a phone, is the phone). They are
read from the kernel (Linux: each interface's IPv4 address; the global IPv6 addresses of
``/proc/net/if_inet6``), loopback and link-local ones left out: a link-local address needs
the phone's own interface name, which nobody types.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from pathlib import Path

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
IF_INET6 = Path("/proc/net/if_inet6")
WILDCARDS = ("", "0.0.0.0", "::")


def _ipv4_of(name: str) -> str | None:
    """The IPv4 address of interface ``name`` (None: it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # no packet is sent
        try:
            answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                 struct.pack("256s", name.encode()[:15]))
        except OSError:
            return None
    return socket.inet_ntoa(answer[20:24])


def ipv4_addresses() -> list[str]:
    """Every interface's IPv4 address, in the kernel's order of interfaces."""
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return []
    return [address for address in map(_ipv4_of, names) if address is not None]


def ipv6_addresses(table: Path = IF_INET6) -> list[str]:
    """Every IPv6 address of ``/proc/net/if_inet6`` (none where there is no such file)."""
    try:
        lines = table.read_text(encoding="ascii").splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        digits = line.split()[0] if line.split() else ""
        if len(digits) == 32:
            found.append(str(ipaddress.IPv6Address(int(digits, 16))))
    return found


def reachable(addresses: list[str]) -> list[str]:
    """Those of ``addresses`` another machine can reach: no loopback, no link-local, each once.

    >>> reachable(["127.0.0.1", "192.168.1.20", "::1", "fe80::1", "fd00::2", "192.168.1.20"])
    ['192.168.1.20', 'fd00::2']
    """
    kept: list[str] = []
    for text in addresses:
        address = ipaddress.ip_address(text)
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            kept.append(str(address))
    return list(dict.fromkeys(kept))


def network_addresses(host: str) -> list[str]:
    """The addresses a station bound to wildcard ``host`` answers on, for other machines:
    IPv4 ones for ``0.0.0.0``; for ``::`` (which takes IPv4 too) the IPv4 ones first."""
    found = ipv4_addresses()
    if host == "::":
        found += ipv6_addresses()
    return reachable(found)


def url_of(address: str, port: int) -> str:
    """``http://ADDRESS:PORT/``, an IPv6 address in brackets.

    >>> url_of("192.168.1.20", 8000), url_of("fd00::2", 8000)
    ('http://192.168.1.20:8000/', 'http://[fd00::2]:8000/')
    """
    return f"http://[{address}]:{port}/" if ":" in address else f"http://{address}:{port}/"
