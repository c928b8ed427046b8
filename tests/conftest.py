"""Shared fixtures: a throwaway real Redis server (never a mock), the app,
and a test client whose every response is checked against openapi.yaml."""
from __future__ import annotations

import base64
import hashlib
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from hypothesis import settings
from rq import Queue, SimpleWorker
from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

from referee.bots.webhook import UrlPolicy
from referee.http.app import create_app
from referee.service.scheduling import QUEUE
from tests import contract
from tests.processes import own_redis

PLUGINS = Path(__file__).parent / "plugins"
#: the test run's signing key (every process the tests start inherits it): no test writes ./var/signing.keys
TEST_SIGNING_KEY = "test-1 " + base64.urlsafe_b64encode(hashlib.sha256(b"referee test signing key").digest()
                                                         ).rstrip(b"=").decode()
os.environ.setdefault("REFEREE_SIGNING_KEY", TEST_SIGNING_KEY)
#: the per-client quotas (referee.http.quotas) off in every app and process the tests start, as the rate limit is:
#: one test address creates thousands of games; tests/api/test_fair_share_quotas.py sets them per app
QUOTAS_OFF = {name: "off" for name in ("REFEREE_GAMES_PER_CLIENT", "REFEREE_GAME_CREATIONS_PER_CLIENT",
                                       "REFEREE_CLAIMS_PER_CLIENT", "REFEREE_BOTS_PER_CLIENT")}
for _name, _off in QUOTAS_OFF.items():
    os.environ.setdefault(_name, _off)

# No timed assertions in tests (speed is measured by `make bench`): hypothesis's
# per-example deadline would fail a correct example on a loaded machine.
settings.register_profile("referee", deadline=None)
settings.load_profile("referee")


def pytest_configure(config: pytest.Config) -> None:
    """Install the throwaway rulesets of ``tests/plugins`` (as pip installs
    any package: a copy, built, into a folder on ``sys.path``): the referee
    finds them through their ``referee.rulesets`` entry points, with no edit
    to it (issue 9)."""
    sys.path.insert(0, str(plugins_site()))
    importlib.invalidate_caches()
    # A shell starts a background job (`make test &`, a CI runner's step) with
    # SIGINT ignored, and every process it starts inherits that: the tests that
    # press Ctrl+C on a real `referee tournament` or `referee run` would see it
    # ignored. A handler set here is reset to the default at each child's exec.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from referee.games import registry
    registry.refresh()


def plugins_site() -> Path:
    """The folder the plugins are installed in: built once for these sources
    and this Python (pip takes seconds a package, every worker of every run
    asked for it), then found in the temporary directory by their digest.
    Built aside and renamed into place: of two workers building at once, one
    rename wins and the other's copy is dropped."""
    packages = sorted(p for p in PLUGINS.iterdir() if (p / "pyproject.toml").exists())
    digest = hashlib.sha256(f"{sys.executable} {sys.version}".encode())
    for path in sorted(f for package in packages for f in package.rglob("*") if f.is_file()
                       and "__pycache__" not in f.parts and ".egg-info" not in str(f)):
        digest.update(str(path.relative_to(PLUGINS)).encode() + b"\0" + path.read_bytes() + b"\0")
    built = Path(tempfile.gettempdir()) / f"referee-plugins-{digest.hexdigest()[:16]}"
    if (built / "site").is_dir():
        return built / "site"
    target = Path(tempfile.mkdtemp(prefix="referee-plugins-build-"))
    for package in packages:
        source = Path(shutil.copytree(package, target / "src" / package.name))
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                        "--no-build-isolation", "--target", str(target / "site"), str(source)],
                       check=True, capture_output=True)
    try:
        target.rename(built)
    except OSError:  # another worker's copy is in place
        shutil.rmtree(target, ignore_errors=True)
    return built / "site"


#: the long tests that run alone (no fixture their file's other tests share: their own, or their worker's), by
#: the start of their node ids: under ``make test`` each is handed out on its own, to whichever worker is free,
#: instead of with its file (the random plays of every ruleset and size, over the API too, the fingerprints;
#: BANG!'s five random games, one a table size, which in one file were a chain of half a minute on one worker;
#: the heuristic bots' match, the longest test of a file of sixty; the examples of the docs, which in one file
#: were minutes on one worker, each against its worker's referee; the JavaScript client's test files, each
#: starting its own referee, which in one file were two minutes on one worker)
SPREAD = ("tests/conformance/test_conformance.py::test_random_legal_play_keeps_the_invariants_to_one_result[",
          "tests/api/test_chain_attack.py::test_no_hidden_value_can_be_recovered_from_any_response[",
          "tests/api/test_leaks.py::test_no_response_to_a_seat_contains_what_the_rules_hide_from_it[",
          "tests/conformance/test_fingerprints.py::test_a_random_game_logs_shows_and_offers_what_it_did_before[",
          "tests/rules/bang/test_properties.py::test_random_legal_play_reaches_a_consistent_end[",
          "tests/bots/test_heuristics.py::test_heuristic_beats_random_in_a_small_match",
          "tests/docs/test_examples.py::test_the_example_runs[",
          "tests/js/test_js_client.py::test_js_client[")


#: marks of the tests whose files go first: long runs, real processes (servers, a browser, a cluster)
LONG = ("slow", "e2e", "browser", "cluster")


class SpreadScheduling(LoadFileScheduling):  # type: ignore[misc]  # xdist has no types
    """pytest-xdist's ``--dist loadfile`` (a test file whole to one worker:
    its module fixtures start once), but for the tests of ``SPREAD``, each a
    unit of its own. (xdist's ``loadgroup``, which would say it with marks,
    renames test ids, which pytest 9 no longer lets it do.)"""

    def _split_scope(self, nodeid: str) -> str:
        return nodeid if nodeid.startswith(SPREAD) else super()._split_scope(nodeid)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's: unknown with -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadFileScheduling | None:
    """``--dist loadfile`` (``make test``) with the tests of ``SPREAD`` spread; any other mode as xdist has it."""
    return SpreadScheduling(config, log) if config.getoption("dist") == "loadfile" else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test``), hand out the longest first
    (``--no-loadscope-reorder`` keeps this order): the tests of ``SPREAD``
    running real processes (``LONG``: the docs' examples, the JavaScript
    client's files), the files with a test marked ``slow`` or running real
    processes, the random plays of ``SPREAD``, the other files by their
    number of tests, most first, and the fingerprints, short ones, last,
    filling the gaps. Every worker orders the same collection the same way,
    as xdist requires; a serial run keeps the files' order. A test of
    ``SPREAD`` that shares a module fixture with its file is refused."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        spread = item.nodeid.startswith(SPREAD)
        if spread and not _alone(item):
            raise pytest.UsageError(f"{item.nodeid} is in SPREAD (tests/conftest.py) but shares a fixture with "
                                    "its file: a worker of its own would start it again")
        units.setdefault(item.nodeid if spread else item.nodeid.split("::")[0], []).append(item)

    def rank(tests: list[pytest.Item]) -> tuple[int, int]:
        long = any(test.get_closest_marker(mark) for test in tests for mark in LONG)
        if tests[0].nodeid.startswith(SPREAD):
            return (0 if long else 2 if tests[0].get_closest_marker("random_play") else 4), 0
        return (1 if long else 3), -len(tests)
    items[:] = [test for tests in sorted(units.values(), key=rank) for test in tests]


def _alone(item: pytest.Item) -> bool:
    """Whether ``item``'s fixtures are its own or its worker's (function or session scope), none its file's."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and all(definition.scope in ("function", "session")
                                    for definitions in info.name2fixturedefs.values() for definition in definitions)


@pytest.fixture(autouse=True)
def _sigterm_as_it_was() -> Iterator[None]:
    """A test that runs a command in this process (``referee play``, ``run``,
    a topology) leaves its SIGTERM handler behind: put back what was there,
    so that no later test forks processes that inherit it."""
    before = signal.getsignal(signal.SIGTERM)
    yield
    if before is not None and signal.getsignal(signal.SIGTERM) is not before:
        signal.signal(signal.SIGTERM, before)


@pytest.fixture(scope="session")
def redis_port() -> Iterator[int]:
    """A real Redis on a free port for the whole run (a fresh machine has none),
    one a pytest-xdist worker."""
    port, proc = own_redis()
    yield port
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def worker_live() -> Iterator[Any]:
    """``tests.e2e.conftest.live_stack()`` (a Redis, ``referee serve``, ``referee worker``), started once a
    pytest-xdist worker process: a stack costs seconds of CPU to start and stop, and once a test file it was
    dozens a run. The e2e, browser and JavaScript files have it emptied for each file (their ``live``); the
    docs' examples share it as it is (``docs_live``). Defined here, once: a session fixture imported into
    two conftests would be two, each started."""
    from tests.e2e.conftest import live_stack
    with live_stack() as stack:
        yield stack


@pytest.fixture(scope="session")
def worker_bots() -> Iterator[Any]:
    """A referee allowing bot URLs on this machine, its Redis and one worker (``tests.e2e.test_http_bots.Stack``),
    started once a pytest-xdist worker process; the tests have it emptied for each (``worker_stack``)."""
    from tests.e2e.test_http_bots import Stack
    stack = Stack()
    try:
        stack.worker()
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A real Chromium (Playwright), one a pytest-xdist worker process: ``watched`` (tests/browser/conftest.py)
    opens a fresh context, a clean profile, a test. Without Chromium or playwright, every test using it is
    skipped, loudly."""
    from tests.browser.conftest import CHROMIUM, missing
    why = missing()
    if why is not None:
        pytest.skip("#" * 20 + f" BROWSER TESTS SKIPPED: {why} " + "#" * 20)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        exe = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def redis_client(redis_port: int) -> redis.Redis:
    client = redis.Redis(port=redis_port)
    client.flushall()
    return client


class Clock:
    """A settable receipt clock (ms) for the service — rules never read one."""

    def __init__(self, now: int = 1_800_000_000_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def clock() -> Clock:
    return Clock()


class ContractClient(FlaskClient):
    """A Flask test client that checks every response against the contract."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        request = response.request
        if response.mimetype != "text/event-stream":
            contract.check(request.method, request.path, response.status_code,
                           response.content_type or "", response.get_data())
        return response


def contract_app(redis_client: redis.Redis, clock: Clock, **config: Any) -> Any:
    """The tests' app over ``redis_client`` and ``clock`` (``config``: more
    settings), its test client checking every response against the contract;
    called again over the same Redis, it stands for another process."""
    app = create_app({"REDIS": redis_client, "CLOCK": clock, "TESTING": True, "ADMIN_TOKEN": "admin-secret",
                      "RATE_LIMIT": "off", **config})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def app(redis_client: redis.Redis, clock: Clock) -> Any:
    app = contract_app(redis_client, clock)
    yield app
    pushed = app.extensions["referee.service"].pushed
    if pushed is not None:
        pushed.close()


@pytest.fixture
def client(app: Any) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def service(app: Any) -> Any:
    return app.extensions["referee.service"]


class BurstWorker(SimpleWorker):
    """RQ's SimpleWorker without its command channel: a pub/sub thread for
    remote commands (stop a job, shut down) that RQ starts at every burst and
    joins at its end, a third of a second a burst, thousands of bursts a run.
    No test sends a worker a command; the jobs run exactly as in any worker."""

    def subscribe(self) -> None:  # no thread: RQ's unsubscribe then has none to stop
        pass


@pytest.fixture
def work(service: Any, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run queued jobs in this process (a real RQ worker, burst mode)."""
    import workers.jobs as jobs
    monkeypatch.setattr(jobs, "service_from_env", lambda: service)
    monkeypatch.setenv("REFEREE_BOT_ALLOW_PRIVATE", "1")

    def run(max_rounds: int = 500) -> None:
        queue = Queue(QUEUE, connection=redis_client)
        for _ in range(max_rounds):
            if queue.count == 0:
                return
            BurstWorker([queue], connection=redis_client).work(burst=True, logging_level="ERROR")
    return run


@pytest.fixture
def loopback_app(app: Any) -> Any:
    app.config["BOT_URL_POLICY"] = UrlPolicy(allow_private=True)
    return app

