"""Which bot URLs the referee may call, and at which address (issue 8, Found 2 and 7).

A bot URL is parsed once (``parse_bot_url``: a malformed one is a 422
``invalid_bot_url``, never a 500), its host is resolved once
(``UrlPolicy.target``), and every address it resolves to must pass
``address_refusal``: ``ipaddress``'s ``is_global`` plus explicit denials of
the ranges ``is_global`` lets through or that reach an internal host by
another spelling (IPv4-mapped, -compatible and -translated IPv6, NAT64, 6to4, Teredo,
multicast, 0.0.0.0, carrier-grade NAT, cloud metadata). The caller then
connects to exactly those checked addresses, so a DNS answer that changes
between the check and the connection (rebinding) is never used.
"""
from __future__ import annotations

import fnmatch
import ipaddress
import math
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit, urlunsplit

from referee.errors import ApiError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Sequence[str]]
"""``(host, port) -> addresses as text``: ``system_resolve``, or a fake in tests."""

DEFAULT_PORTS = {"http": 80, "https": 443}

# Refused even with REFEREE_BOT_ALLOW_PRIVATE: metadata services, tunnels and
# other spellings that reach an internal host, and ranges `is_global` (3.11)
# wrongly calls global (6to4, NAT64, multicast, ::a.b.c.d).
_DENIED: tuple[tuple[Network, str], ...] = tuple((ipaddress.ip_network(net), why) for net, why in (
    ("0.0.0.0/8", "'this network' (0.0.0.0 reaches the local host)"),
    ("100.64.0.0/10", "shared address space (carrier-grade NAT; 100.100.100.200 is a cloud metadata service)"),
    ("169.254.0.0/16", "link-local (169.254.169.254 is the cloud metadata service)"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved or broadcast"),
    ("::/128", "unspecified"),
    ("::ffff:0:0/96", "IPv4-mapped IPv6 (write the IPv4 address)"),
    ("::ffff:0:0:0/96", "IPv4-translated IPv6 (SIIT; write the IPv4 address)"),
    ("64:ff9b::/96", "NAT64"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("2001::/32", "Teredo"),
    ("2002::/16", "6to4"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
    ("fd00:ec2::254/128", "the AWS metadata service"),
))
# What REFEREE_BOT_ALLOW_PRIVATE=1 allows on top of global addresses: loopback
# (tests, the README's local bot) and private networks (a bot in a container).
_PRIVATE: tuple[Network, ...] = tuple(ipaddress.ip_network(net) for net in (
    "127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))
_V6_LOOPBACK = ipaddress.IPv6Address("::1")

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\Z")
_NUMERIC = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)\Z")  # inet_aton's spellings: 2130706433, 0x7f.1, 0177.0.0.1



class Deadline:
    """One instant after which a bot call is over, whatever it is doing (issue 8, Deliver 4)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()

    def arm(self, sock: socket.socket) -> None:
        """Bound ``sock``'s next operation by what is left; ``TimeoutError`` when nothing is."""
        left = self.remaining()
        if not left > 0:
            raise TimeoutError("the bot's deadline has passed")
        sock.settimeout(left if math.isfinite(left) else None)


def address_refusal(address: Address, *, allow_private: bool) -> str | None:
    """Why the referee must not call ``address``, or ``None`` when it may (issue 8, Found 7)."""
    for network, why in _DENIED:
        if address.version == network.version and address in network:
            return why
    if isinstance(address, ipaddress.IPv6Address) and int(address) < 2**32 and address != _V6_LOOPBACK:
        return "IPv4-compatible IPv6 (deprecated)"
    if address.is_global:
        return None
    if allow_private and any(address.version == n.version and address in n for n in _PRIVATE):
        return None
    hint = "" if allow_private else "; set REFEREE_BOT_ALLOW_PRIVATE=1 to allow loopback and private networks"
    return f"not a public address{hint}"


@dataclass(frozen=True, slots=True)
class BotUrl:
    """A well-formed bot URL, split into what a request to it needs."""

    scheme: str
    host: str  # IDNA-encoded host name, or a canonical IP literal (no brackets)
    port: int
    host_header: str  # the Host header: the URL's host (bracketed if IPv6) and its explicit port
    target: str  # path and query, percent-encoded as requests would send them
    literal: Address | None  # the host, when it is an IP address


def _invalid(detail: str) -> ApiError:
    return ApiError(422, "invalid_bot_url", detail)


def _refused(detail: str) -> ApiError:
    return ApiError(422, "bot_url_refused", detail)


def _dns_name(hostname: str) -> str:
    """The ASCII form of a DNS host name; ``invalid_bot_url`` for anything else."""
    try:
        name = hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise _invalid(f"{hostname!r} is not a valid host name (each label is 1 to 63 characters)") from None
    labels = (name.removesuffix(".")).split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise _invalid(f"{hostname!r} is not a valid host name")
    if _NUMERIC.match(labels[-1]):
        raise _invalid(f"{hostname!r} is not a host name; write an IP address in dotted decimal (IPv4) "
                       "or in brackets (IPv6)")
    return name


def _split(url: str) -> tuple[SplitResult, int | None, str | None]:
    """``url``'s parts, port and host name; ``invalid_bot_url`` when they cannot be read."""
    try:
        parts = urlsplit(url)
        return parts, parts.port, parts.hostname
    except ValueError as err:
        raise _invalid(f"not a valid URL: {err}") from None


def _checked_host(parts: SplitResult, port: int | None, hostname: str | None) -> str:
    """The host name of an absolute http(s) URL with a host, a callable port
    and no credentials; else ``invalid_bot_url`` or ``bot_url_refused``."""
    if parts.scheme and parts.scheme not in DEFAULT_PORTS:
        raise _refused(f"a bot URL is http or https, not {parts.scheme}")
    if not parts.scheme or not parts.netloc:
        raise _invalid("a bot URL is an absolute http(s) URL")
    if parts.username is not None or parts.password is not None:
        raise _refused("a bot URL carries no credentials: every request is signed instead")
    if not hostname:
        raise _invalid("a bot URL names a host")
    if port == 0:
        raise _invalid("port 0 cannot be called")
    return hostname


def _ip_literal(hostname: str, netloc: str) -> Address | None:
    """The host as an IP address, or ``None`` for a name; brackets hold only IPv6."""
    try:
        literal: Address | None = ipaddress.ip_address(hostname)
    except ValueError:
        literal = None
    if "[" in netloc and (literal is None or literal.version != 6):
        raise _invalid(f"{hostname!r} in brackets is not an IPv6 address")
    return literal


def _request_target(parts: SplitResult) -> str:
    """Path and query, percent-encoded as requests would send them (requests
    is loaded here, at a bot URL's first check: it and urllib3 were a fifth
    of the API's import)."""
    from requests.utils import requote_uri
    try:
        return requote_uri(urlunsplit(("", "", parts.path or "/", parts.query, "")))
    except ValueError:  # a lone surrogate cannot be percent-encoded
        raise _invalid("the URL's path or query is not valid text") from None


def parse_bot_url(url: str) -> BotUrl:
    """Split an absolute http(s) URL; 422 ``invalid_bot_url`` when it is malformed
    (issue 8, Found 2: ``http://[::1/``, port 99999 or ``abc``, a 64-character label),
    ``bot_url_refused`` for another scheme or credentials in the URL."""
    parts, port, name = _split(url)
    hostname = _checked_host(parts, port, name)
    literal = _ip_literal(hostname, parts.netloc)
    host = str(literal) if literal is not None else _dns_name(hostname)
    bracketed = f"[{host}]" if literal is not None and literal.version == 6 else host
    target = _request_target(parts)
    return BotUrl(parts.scheme, host, port or DEFAULT_PORTS[parts.scheme],
                  bracketed + (f":{port}" if port is not None else ""), target, literal)


def system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, in the system's preferred order."""
    found: list[str] = []
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = str(info[4][0])
        if address not in found:
            found.append(address)
    return found


def _resolve_within(resolve: Resolver, host: str, port: int, deadline: Deadline) -> Sequence[str]:
    """``resolve(host, port)``, waited for at most until ``deadline``.

    getaddrinfo has no timeout of its own, and a bot's own name server may
    never answer: the lookup runs in a daemon thread of its own (not a shared
    pool that a few hanging lookups would fill for every bot), left to finish
    alone if the deadline passes."""
    future: Future[Sequence[str]] = Future()

    def run() -> None:
        try:
            future.set_result(resolve(host, port))
        except Exception as err:  # handed to the waiting caller
            future.set_exception(err)
    threading.Thread(target=run, name=f"bot-dns {host}", daemon=True).start()
    return future.result(timeout=max(deadline.remaining(), 0.0))


@dataclass(frozen=True, slots=True)
class Target:
    """A bot URL and the addresses it resolved to, each checked: connect only to these."""

    url: BotUrl
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class UrlPolicy:
    """Which bot URLs may be called: an optional host allowlist (glob
    patterns), whether loopback and private networks are allowed, and the
    resolver (the system's; a fake in tests)."""

    allowlist: tuple[str, ...] = ()
    allow_private: bool = False
    resolve: Resolver = field(default=system_resolve, compare=False, repr=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> UrlPolicy:
        allow = tuple(p.strip() for p in env.get("REFEREE_BOT_URL_ALLOWLIST", "").split(",") if p.strip())
        return cls(allow, env.get("REFEREE_BOT_ALLOW_PRIVATE", "") in ("1", "true", "yes"))

    def check(self, url: str, *, timeout_s: float = 5.0) -> Target:
        """Refuse (422) a URL this referee must not call; else its checked addresses."""
        try:
            return self.target(url, Deadline(timeout_s))
        except TimeoutError:
            raise _refused("the bot's host name did not resolve in time") from None

    def target(self, url: str, deadline: Deadline) -> Target:
        """Parse ``url``, resolve its host ONCE (within ``deadline``) and check
        every address (issue 8, Deliver 4); 422 ``invalid_bot_url`` or
        ``bot_url_refused``, ``TimeoutError`` when resolution outlasts the deadline."""
        bot_url = parse_bot_url(url)
        if self.allowlist and not any(fnmatch.fnmatch(bot_url.host, p) for p in self.allowlist):
            raise _refused(f"{bot_url.host} is not on the bot URL allowlist")
        if bot_url.literal is not None:
            texts: Sequence[str] = [str(bot_url.literal)]
        else:
            try:
                texts = _resolve_within(self.resolve, bot_url.host, bot_url.port, deadline)
            except TimeoutError:  # an OSError too, but the caller's: the deadline passed
                raise
            except (OSError, UnicodeError):
                raise _refused(f"{bot_url.host} does not resolve") from None
        addresses: list[str] = []
        for text in texts:
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                raise _refused(f"{bot_url.host} resolves to {text!r}, not an address") from None
            why = address_refusal(address, allow_private=self.allow_private)
            if why is not None:
                raise _refused(f"{bot_url.host} resolves to {address}: {why}")
            addresses.append(str(address))
        if not addresses:
            raise _refused(f"{bot_url.host} does not resolve")
        return Target(bot_url, tuple(addresses))
