"""The playtest options click cannot check alone: how many games a batch may hold, and a dask scheduler's address."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import click

from rulekit import registry
from rulekit.console import WholeNumber

_MOST = registry.LIMITS["games"].value
GAMES = WholeNumber("integer", 1, _MOST, f"一批有 1 到 {_MOST:,} 局", f"a batch has 1 to {_MOST:,} games",
                    "; for more, run several batches, each with its own --seed and --out")

# dask's own schemes for a scheduler reached over the network, and what a host name may hold.
SCHEMES = ("tcp", "tls")
HOSTNAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.?")
PORT = "its port is no number from 1 to 65535"


def scheduler_address(value: str | None) -> str | None:
    """--scheduler as dask reads it ([tcp://]host:port), or a usage error saying how to write it."""
    if value is None:
        return None
    text = value.strip()
    problem = _address_problem(text if "://" in text else f"tcp://{text}")
    if problem:
        raise click.BadParameter(f"{value!r} is not a dask scheduler address: {problem}. Write it as"
                                 f" tcp://HOST:PORT, such as tcp://192.168.1.5:8786 or tcp://[::1]:8786"
                                 f" / 调度器地址须写作 tcp://主机:端口")
    return text


def _address_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:       # a port that is no number from 0 to 65535, or a broken [IPv6] host
        return (PORT if str(err).startswith("Port") else
                "its host cannot be read (an IPv6 address goes in square brackets, such as [::1])")
    if parts.scheme not in SCHEMES:
        return f"it begins with {parts.scheme}://, not tcp:// or tls://"
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        return "it has more than a host and a port"
    if not parts.hostname or not (parts.netloc.startswith("[") or HOSTNAME.fullmatch(parts.hostname)):
        return "it has no host name (or one with characters a host name cannot have)"
    if port is None:
        return "it has no port (the number after the last ':')"
    return PORT if port == 0 else None
