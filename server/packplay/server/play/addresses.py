"""Client addresses as the per-client limits count them.

Every limit per client (new games, open lobbies, house games and moves, connections,
spectators, catch-ups) counts by this key of the address the request came from: behind
trusted proxies, the address they name (see the ``trusted_proxies`` setting).
"""

from __future__ import annotations

import functools
import ipaddress


@functools.lru_cache(maxsize=4096)  # parsing an address costs more than the rest of a request's checks
def client_key(address: str) -> str:
    """What the per-client limits count by: the address, an IPv6 one as its /64 network (one
    subscriber's share)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
