"""Webhook bot calls: one deadline, a size cap, and no address that is not
checked (issue 8, Found 2, 6 and 7; Deliver 4).

Every HTTP exchange here is real, with servers on 127.0.0.1 (tests/hostile_http.py).
Nothing is sent to any other address: the SSRF checks test the classifier,
the URL parser and the resolve-once logic with a fake resolver, and where a
"public" address must be connected to, an injected connector records it and
connects to the loopback server instead."""
from __future__ import annotations

import ipaddress
import socket
import ssl
import subprocess
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.bots.webhook import (
    BotFailure,
    CallLimits,
    UrlPolicy,
    address_refusal,
    ask,
    connect_tcp,
    parse_bot_url,
)
from referee.errors import ApiError
from tests.hostile_http import HUGE, HostileServer

LOOPBACK = UrlPolicy(allow_private=True)
PUBLIC = "93.184.215.14"  # any global address: only ever handed to a fake connector


def _ask(url: str, *, timeout_s: float = 1.0, max_bytes: int = 64 * 1024, policy: UrlPolicy = LOOPBACK,
         **kwargs: Any) -> dict[str, Any]:
    return ask(url, "s3cret", {"turn": 1}, delivery="g:1:0", policy=policy,
               limits=CallLimits(timeout_s, max_bytes), **kwargs)


def _cause(url: str, **kwargs: Any) -> str:
    with pytest.raises(BotFailure) as failure:
        _ask(url, **kwargs)
    return failure.value.cause


class FakeResolver:
    """Answers from a script, one answer per call, and counts the calls."""

    def __init__(self, *answers: Sequence[str]) -> None:
        self.answers: list[Sequence[str]] = list(answers)
        self.calls: list[str] = []

    def __call__(self, host: str, port: int) -> Sequence[str]:
        self.calls.append(host)
        if not self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "no such name")
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


class RedirectingConnector:
    """Records every address the caller connects to, and connects to the loopback server instead."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.addresses: list[tuple[str, int]] = []

    def __call__(self, address: tuple[str, int], timeout: float) -> socket.socket:
        self.addresses.append(address)
        return connect_tcp(("127.0.0.1", self.port), timeout)


# -- Found 6: one deadline, one size cap -----------------------------------------
@pytest.mark.parametrize("mode", ["trickle_body", "trickle_head"])
def test_a_trickling_bot_costs_at_most_the_deadline(mode: str) -> None:
    """Issue 8, Found 6: a timeout per read let a bot trickling a byte every
    0.5 s hold the worker for as long as it kept trickling (here 10 s; before
    the fix this took the whole 10 s, or answered `unreachable` after it)."""
    with HostileServer(mode, interval_s=0.5, trickle_bytes=20) as bot:
        started = time.monotonic()
        cause = _cause(bot.url, timeout_s=1.0)
        elapsed = time.monotonic() - started
    assert cause == "timeout"
    assert elapsed < 1.0 + 1.5
    assert len(bot.requests) == 1  # a timeout spends the deadline: no retry


@pytest.mark.parametrize("mode", ["huge", "huge_unannounced"])
def test_a_huge_answer_is_cut_at_the_cap_and_never_held_in_memory(mode: str) -> None:
    """Issue 8, Found 6: a 50 MB answer was read whole (worker 43 → 191 MB).
    Now at most the cap is read, in chunks: the peak of Python allocations
    during the call stays far below the answer (before the fix: ≥ 50 MB and
    cause `not_json`)."""
    with HostileServer(mode) as bot:
        tracemalloc.start()
        try:
            cause = _cause(bot.url, timeout_s=5.0, max_bytes=64 * 1024)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert cause == "response_too_large"
    assert peak < 4 * 1024 * 1024 < HUGE


def test_endless_headers_count_against_the_cap() -> None:
    """Issue 8, Found 6: the cap holds for the head too — the status line,
    headers and framing may add at most 64 KiB to the body's cap (before the
    fix: 100 header lines of 60 KB, 6 MB, were read before http.client gave up)."""
    with HostileServer("huge_headers") as bot:
        assert _cause(bot.url, timeout_s=5.0) == "response_too_large"
    assert bot.sent < 1000 * 60_000


def test_the_retry_after_a_5xx_fits_in_the_same_deadline() -> None:
    """Issue 8, Deliver 4: one deadline per call, the retry included. A bot
    answering 500 after 0.7 s gets its retry, which runs out of the 1 s
    (before the fix each attempt had its own timeout: 1.4 s and `http_500`)."""
    with HostileServer("slow_error", interval_s=0.7) as bot:
        started = time.monotonic()
        cause = _cause(bot.url, timeout_s=1.0)
        elapsed = time.monotonic() - started
    assert cause == "timeout"
    assert elapsed < 1.0 + 1.5


def test_a_5xx_is_retried_once_with_the_same_delivery_id() -> None:
    """The bounded retry stays: a fast 500 is asked again, same delivery id."""
    with HostileServer("error") as bot:
        assert _cause(bot.url, timeout_s=5.0) == "http_500"
    assert [r["headers"]["x-referee-delivery"] for r in bot.requests] == ["g:1:0", "g:1:0"]


def test_redirects_are_never_followed() -> None:
    """Issue 8, Found 7: a redirect would send the call to an address nobody checked."""
    with HostileServer("answer") as target, HostileServer("redirect", location=target.url) as bot:
        assert _cause(bot.url) == "http_302"
    assert target.requests == []


def test_an_answer_nested_too_deep_to_parse_is_not_json_not_a_crash() -> None:
    """A 60 KB answer of `[` raised RecursionError out of the job (no default
    move recorded); it is a bot failure like any unparsable answer."""
    with HostileServer("deep_json") as bot:
        assert _cause(bot.url) == "not_json"


def test_a_good_answer_is_the_move_and_the_request_is_signed_and_addressed_by_host() -> None:
    with HostileServer("answer") as bot:
        assert _ask(bot.url) == {"type": "roll"}
    request = bot.requests[0]
    assert request["line"] == "POST /turn HTTP/1.1"
    assert request["headers"]["host"] == f"127.0.0.1:{bot.port}"
    assert request["headers"]["x-referee-signature"].startswith("sha256=")
    assert request["headers"].get("accept-encoding", "identity") == "identity"  # no decompression bombs


def test_call_limits_come_from_the_environment_and_bad_values_fall_back() -> None:
    """Deliver 4: both limits are settings; a typo must not crash every bot turn."""
    assert CallLimits.from_env({}) == CallLimits(5.0, 64 * 1024)
    assert CallLimits.from_env({"REFEREE_BOT_TIMEOUT_S": "1.5", "REFEREE_BOT_MAX_RESPONSE_BYTES": "1000"}) \
        == CallLimits(1.5, 1000)
    for bad in ("abc", "0", "-1", "nan", "inf"):
        assert CallLimits.from_env({"REFEREE_BOT_TIMEOUT_S": bad, "REFEREE_BOT_MAX_RESPONSE_BYTES": bad}) \
            == CallLimits(5.0, 64 * 1024)


# -- Found 7: which addresses may be called ----------------------------------------
ALWAYS_REFUSED = [
    "100.100.100.200",        # Found 7: a cloud metadata address (CGNAT range)
    "100.64.0.1",             # Found 7: carrier-grade NAT
    "2002:a9fe:a9fe::",       # Found 7: 6to4 of 169.254.169.254 (is_global says True)
    "169.254.169.254",        # the metadata service
    "fd00:ec2::254",          # the AWS metadata service over IPv6
    "::ffff:127.0.0.1",       # IPv4-mapped loopback
    "::ffff:169.254.169.254",  # IPv4-mapped metadata
    "::127.0.0.1",            # IPv4-compatible (is_global says True)
    "::169.254.169.254",      # issue 36: IPv4-compatible above 2**31 (a bound of 2**31 let it through)
    "::a9fe:a9fe",            # the same, written in hex
    "::255.255.255.255",      # the range's last address (2**32 - 1)
    "::8.8.8.8", "::10.0.0.1", "::0.0.0.2",  # IPv4-compatible of a public, a private and the first after ::1
    "::ffff:0:a9fe:a9fe", "::ffff:0:7f00:1",  # IPv4-translated (SIIT, RFC 6145) metadata and loopback
    "64:ff9b::a9fe:a9fe",     # NAT64 of 169.254.169.254 (is_global says True)
    "64:ff9b:1::7f00:1",      # local-use NAT64
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "0.0.0.0", "0.1.2.3", "::",  # "this host" / unspecified
    "224.0.0.1", "ff02::1",   # multicast (is_global says True)
    "255.255.255.255", "240.0.0.1", "192.0.0.192", "192.88.99.1", "fe80::1", "fec0::1",
]
PRIVATE = ["127.0.0.1", "127.1.2.3", "::1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "fc00::1"]
NEVER_GLOBAL = ["2001:db8::1", "192.0.2.1", "198.51.100.1", "203.0.113.1", "198.18.0.1", "100::1"]
GLOBAL = [PUBLIC, "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]


@pytest.mark.parametrize("allow_private", [False, True])
@pytest.mark.parametrize("address", ALWAYS_REFUSED + NEVER_GLOBAL)
def test_special_addresses_are_refused_even_when_private_ones_are_allowed(
        address: str, allow_private: bool) -> None:
    """Issue 8, Found 7: `is_private` let CGNAT, 6to4 and friends through; the
    check is `is_global` plus explicit denials, which REFEREE_BOT_ALLOW_PRIVATE
    does not lift."""
    assert address_refusal(ipaddress.ip_address(address), allow_private=allow_private) is not None


def test_the_ipv4_compatible_range_ends_at_2_to_the_32() -> None:
    """Issue 36: ``::a.b.c.d`` is every IPv6 address below 2**32 but ``::`` and ``::1``;
    ``::1:0:0`` (2**32) is the first address past it (whatever else refuses it)."""
    compatible = "IPv4-compatible IPv6 (deprecated)"
    last = ipaddress.IPv6Address(2**32 - 1)
    assert address_refusal(last, allow_private=True) == compatible
    assert address_refusal(last + 1, allow_private=True) != compatible


@pytest.mark.parametrize("address", PRIVATE)
def test_loopback_and_private_networks_only_with_allow_private(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address), allow_private=False) is not None
    assert address_refusal(ipaddress.ip_address(address), allow_private=True) is None


@pytest.mark.parametrize("address", GLOBAL)
def test_global_addresses_are_allowed(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address), allow_private=False) is None


@pytest.mark.parametrize("url", [
    "http://100.100.100.200/", "http://100.64.0.1/", "http://[2002:a9fe:a9fe::]/",
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[64:ff9b::7f00:1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "http://0.0.0.0:8000/", "http://169.254.169.254/latest",
    "http://[::169.254.169.254]/", "http://[::a9fe:a9fe]/", "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:0:169.254.169.254]/",
])
@pytest.mark.parametrize("allow_private", [False, True])
def test_ssrf_urls_are_refused_without_any_resolution(url: str, allow_private: bool) -> None:
    """Issue 8, Found 7: every example of the issue and its look-alikes."""
    resolver = FakeResolver()
    with pytest.raises(ApiError) as refused:
        UrlPolicy(allow_private=allow_private, resolve=resolver).check(url)
    assert refused.value.code == "bot_url_refused" and resolver.calls == []


@pytest.mark.parametrize("url", [
    "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://127.1/",
    "http://017700000001/", "http://%31%32%37.0.0.1/",
])
def test_other_spellings_of_an_ip_address_are_invalid(url: str) -> None:
    """Decimal, octal, hex and short forms reach 127.0.0.1 through
    getaddrinfo's inet_aton: only canonical IP literals are taken."""
    resolver = FakeResolver(["127.0.0.1"])
    with pytest.raises(ApiError) as refused:
        UrlPolicy(allow_private=True, resolve=resolver).check(url)
    assert refused.value.code == "invalid_bot_url" and resolver.calls == []


@pytest.mark.parametrize("url", ["http://user:pw@bot.example/", "http://bot.example@127.0.0.1/",
                                 "http://@bot.example/", "ftp://bot.example/", "file:///etc/passwd"])
def test_userinfo_and_other_schemes_are_refused(url: str) -> None:
    with pytest.raises(ApiError) as refused:
        UrlPolicy(resolve=FakeResolver([PUBLIC])).check(url)
    assert refused.value.code == "bot_url_refused"


@pytest.mark.parametrize("answer", [["100.100.100.200"], ["127.0.0.1"], [PUBLIC, "10.0.0.7"],
                                    ["::ffff:169.254.169.254"], ["not-an-address"]])
def test_a_name_is_refused_if_any_address_it_resolves_to_is_refused(answer: list[str]) -> None:
    """A name resolving to several addresses passes only if every one does:
    a private address cannot hide behind a public one."""
    with pytest.raises(ApiError) as refused:
        UrlPolicy(resolve=FakeResolver(answer)).check("http://bot.example/turn")
    assert refused.value.code == "bot_url_refused"


def test_dns_rebinding_one_resolution_and_the_connection_goes_to_the_checked_address() -> None:
    """Issue 8, Found 7: the address was resolved at the check and again at
    the connect, so a name answering a public address, then 127.0.0.1, passed
    the check and was called at 127.0.0.1. Now it is resolved once per call,
    checked, and the connection goes to that very address with the URL's
    Host header; the retry after a 500 reuses it too."""
    resolver = FakeResolver([PUBLIC], ["127.0.0.1"])
    with HostileServer("error") as bot:
        connector = RedirectingConnector(bot.port)
        cause = _cause("http://bot.example/turn?x=1", policy=UrlPolicy(resolve=resolver), connect=connector,
                       timeout_s=5.0)
    assert cause == "http_500"
    assert resolver.calls == ["bot.example"]
    assert connector.addresses == [(PUBLIC, 80), (PUBLIC, 80)]
    assert [(r["line"], r["headers"]["host"]) for r in bot.requests] == [("POST /turn?x=1 HTTP/1.1", "bot.example")] * 2


def test_a_name_that_now_resolves_to_a_refused_address_is_not_called() -> None:
    """Checked at call time too (a registered name may change): no connection at all."""
    connector = RedirectingConnector(9)
    policy = UrlPolicy(resolve=FakeResolver(["100.100.100.200"]))
    assert _cause("http://bot.example/", policy=policy, connect=connector) == "url_refused"
    assert connector.addresses == []


def test_a_name_server_that_never_answers_costs_at_most_the_deadline() -> None:
    """getaddrinfo has no timeout: resolution runs within the call's deadline."""
    def slow(host: str, port: int) -> list[str]:
        time.sleep(3)
        return [PUBLIC]
    connector = RedirectingConnector(9)
    started = time.monotonic()
    assert _cause("http://bot.example/", policy=UrlPolicy(resolve=slow), connect=connector,
                  timeout_s=0.5) == "timeout"
    assert time.monotonic() - started < 0.5 + 1.5
    assert connector.addresses == []


def test_the_next_checked_address_is_tried_when_one_refuses_the_connection() -> None:
    with HostileServer("answer") as bot:
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]
        closed.close()  # nothing listens there: connection refused

        def connect(address: tuple[str, int], timeout: float) -> socket.socket:
            port = dead_port if address[0] == "127.0.0.2" else bot.port
            return connect_tcp(("127.0.0.1", port), timeout)
        policy = UrlPolicy(allow_private=True, resolve=FakeResolver(["127.0.0.2", "127.0.0.3"]))
        assert _ask("http://bot.example/", policy=policy, connect=connect) == {"type": "roll"}


# -- Found 2: malformed bot URLs are 422, never 500 ---------------------------------------
@pytest.mark.parametrize("url", [
    "http://[::1/", "http://bot.example:99999/", "http://bot.example:abc/", f"http://{'a' * 64}.example/",
    "http://bot.example:0/", "http://[bot.example]/", "http://bot..example/", f"http://{'a.' * 127}com/",
    "http://bot.example/\ud800", "http://bo\ud800t.example/", "http:///turn", "bot.example/turn", "",
    "http://bot example/", "//bot.example/turn",  # scheme-relative: a netloc and no scheme
])
def test_malformed_bot_urls_are_invalid_bot_url(url: str) -> None:
    """Issue 8, Found 2: these raised ValueError or UnicodeError out of the check."""
    with pytest.raises(ApiError) as refused:
        UrlPolicy(allow_private=True, resolve=FakeResolver([PUBLIC])).check(url)
    assert refused.value.status == 422 and refused.value.code == "invalid_bot_url"


def test_a_well_formed_url_is_split_for_the_request() -> None:
    url = parse_bot_url("https://Bücher.Example:8443/a b/ü?q=1#frag")
    assert (url.scheme, url.host, url.port) == ("https", "xn--bcher-kva.example", 8443)
    assert url.host_header == "xn--bcher-kva.example:8443"
    assert url.target == "/a%20b/%C3%BC?q=1"
    assert parse_bot_url("http://[2606:4700:4700::1111]/").host_header == "[2606:4700:4700::1111]"


# -- https: pinned address, certificate and SNI checked against the host name ----------------
@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-keyout", str(key), "-out", str(cert), "-subj", "/CN=bot.test",
                        "-addext", "subjectAltName=DNS:bot.test"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as err:
        pytest.skip(f"openssl cannot make a test certificate: {err}")
    return cert, key


def _tls_pair(certificate: tuple[Path, Path]) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(*certificate)
    return server, ssl.create_default_context(cafile=str(certificate[0]))


def test_https_connects_to_the_checked_address_but_verifies_the_host_name(
        certificate: tuple[Path, Path]) -> None:
    """Issue 8, Deliver 4: pinning the address keeps TLS honest — SNI and the
    certificate are those of the URL's host name, not of the address."""
    server, client = _tls_pair(certificate)
    with HostileServer("answer", tls=server) as bot:
        policy = UrlPolicy(allow_private=True, resolve=FakeResolver(["127.0.0.1"]))
        assert _ask(f"https://bot.test:{bot.port}/turn", policy=policy, tls=client) == {"type": "roll"}
    assert bot.sni == ["bot.test"]
    assert bot.requests[0]["headers"]["host"] == f"bot.test:{bot.port}"


def test_https_to_a_host_the_certificate_does_not_name_is_refused(certificate: tuple[Path, Path]) -> None:
    server, client = _tls_pair(certificate)
    with HostileServer("answer", tls=server) as bot:
        policy = UrlPolicy(allow_private=True, resolve=FakeResolver(["127.0.0.1"]))
        assert _cause(f"https://other.test:{bot.port}/turn", policy=policy, tls=client) == "tls_error"
        assert _cause(f"https://127.0.0.1:{bot.port}/turn", policy=policy, tls=client) == "tls_error"
    assert bot.requests == []
