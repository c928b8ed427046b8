# Two commands on a fresh machine: `make run` and `make test`.
# PY: the first of these that runs and is Python >= 3.11 (a pyenv shim or a
# broken link is skipped); `make PY=/path/to/python3.x` picks one yourself.
PY_CANDIDATES := python3.13 python3.12 python3.11 python3
PY_OK   := import sys; sys.exit(sys.version_info < (3, 11))
ifeq ($(origin PY),undefined)
PY      := $(shell for p in $(PY_CANDIDATES); do \
             if "$$p" -c '$(PY_OK)' >/dev/null 2>&1; then command -v "$$p"; break; fi; done)
endif
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
# what running needs, without the test tools (`make test` adds them)
RUNSTAMP := $(VENV)/.installed-run

# Python's default, whatever the shell says: the suite starts hundreds of
# processes (referee serve, workers, the CLI), each importing the package;
# with PYTHONDONTWRITEBYTECODE set, each would compile it again from source.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check bench soak install lint clean python cluster screenshots npm docs

# the JavaScript client's dev tools (clients/js: typescript, openapi-typescript,
# yaml), exactly as its package-lock.json pins them; none is needed to run it.
# Without node >= 20 the client's checks and tests are skipped (said loudly).
JS      := clients/js
NPMSTAMP := $(JS)/node_modules/.installed
NODE_OK := node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 20 ? 1 : 0)' >/dev/null 2>&1
$(NPMSTAMP): $(JS)/package.json $(JS)/package-lock.json
	@if ! $(NODE_OK); then \
	  echo "make: WARNING: no node >= 20: the JavaScript client's checks and tests are SKIPPED" >&2; \
	else \
	  command -v npm >/dev/null 2>&1 || { echo "make: node is here but npm is not: install npm" >&2; exit 2; }; \
	  cd $(JS) && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	fi

npm: $(NPMSTAMP)

# axe-core, which the browser tests inject into the page, installed as
# tests/browser/package-lock.json pins it (npm ci: the lockfile, nothing newer)
AXE := tests/browser/node_modules/.installed
$(AXE): tests/browser/package.json tests/browser/package-lock.json
	@command -v npm >/dev/null || { echo "make: npm is needed to install axe-core for tests/browser (Debian: apt-get install npm)" >&2; exit 2; }
	cd tests/browser && npm ci --no-audit --no-fund
	touch $(AXE)

# one shell line: refuse (exit 2) with a message when no good Python was found
CHECK_PY = test -n "$(PY)" || { echo "make: need Python >= 3.11: none of $(PY_CANDIDATES) on PATH runs as one; \
install one or pass PY=/path/to/python3.x" >&2; exit 2; }; \
"$(PY)" -c '$(PY_OK)' >/dev/null 2>&1 || { echo "make: PY=$(PY) is not a Python >= 3.11 that runs" >&2; exit 2; }

$(STAMP): pyproject.toml
	@$(CHECK_PY)
	test -x $(BIN)/python || "$(PY)" -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,docs]'
	touch $(STAMP)

install: $(STAMP)

$(RUNSTAMP): pyproject.toml
	@$(CHECK_PY)
	test -x $(BIN)/python || "$(PY)" -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $(RUNSTAMP)

# ARGS: e.g. ARGS="--redis-port 6391 --access-log" (`.venv/bin/referee run --help`)
run: $(RUNSTAMP)
	$(BIN)/referee run $(ARGS)

# every core: pytest-xdist worker processes, each with its own throwaway
# Redis; a test file stays on one worker (its module fixtures start once), but
# for the long random plays and fingerprints, handed out one by one; the longest
# first (tests/conftest.py: SPREAD, the scheduler and the order). The lint checks (-m lint)
# are `make lint`'s. ARGS: e.g. ARGS="-m 'not lint and not fingerprints'". The property
# tests draw a third of their long run's examples (tests/examples.py): the long
# run is `REFEREE_EXAMPLES=all make test`.
# Two worker processes a core: much of a test of real processes is waiting (for a
# browser, a bot's answer, a timeout, a failover), which a second worker per core
# fills (quiet 2-core machine, same tests: 711 s with one a core, 610 s with two;
# three a core, measured later: 684 s against 656 s the same day).
# The CPU-bound lanes (check, lint) keep one a core.
WORKERS := $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))
XDIST   := -n $(WORKERS) --dist loadfile --no-loadscope-reorder
CPU_XDIST := -n auto --dist loadfile --no-loadscope-reorder
test: $(STAMP) $(NPMSTAMP) $(AXE)
	$(BIN)/python -m pytest $(XDIST) -m "not lint" --durations=25 $(ARGS)

# the edit-test loop: the rules' and the units' tests a change most likely
# breaks, without the slow ones, the long random play and the fingerprints
# (`make test` runs them all)
CHECK_MARKS := not lint and not slow and not random_play and not fingerprints
check: $(STAMP)
	$(BIN)/python -m pytest $(CPU_XDIST) -m "$(CHECK_MARKS)" tests/rules tests/unit tests/bots $(ARGS)

# docs/screenshots/bang.png and faceoff.png: the watch page (/watch/{id}) of a
# finished bot game, taken by the browser tests in Chromium (apt-get install chromium);
# and <game>-{seat,spectator}-{mid,end}.png: each table played by clicking from a
# seat, mid-game and at the end, as that seat and as a spectator (tests/browser/test_table*.py)
screenshots: $(STAMP) $(AXE)
	REFEREE_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/browser -k "followed_live and (bang- or bang]) and not dice"
	REFEREE_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest $(XDIST) tests/browser/test_table*.py
	ls -l docs/screenshots/bang.png docs/screenshots/faceoff.png docs/screenshots/*-seat-mid.png

# the scaled-out topology on this machine: a Redis Cluster (3 masters + 3
# replicas), a queue Redis, 2 referees behind haproxy, 2 workers, and a
# PostgreSQL archive when postgresql is installed (docs/archive.md); Ctrl+C stops
# it all. Needs haproxy (apt-get install haproxy). ARGS: e.g. ARGS="--standalone --referees 3"
cluster: $(RUNSTAMP)
	$(BIN)/python -m referee.ops.topology $(ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

soak: $(STAMP)
	$(BIN)/python -m bench soak 1000

# the docs site (mkdocs.yml, docs/) into site/; `make lint` builds it with
# --strict: a broken link, an anchor that is gone or a page left out of the nav fails
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --quiet

# the JavaScript client: its schema.d.ts regenerated from openapi.yaml must be
# the one committed, and tsc (strict, checkJs) must pass over it and its tests
lint: $(STAMP) $(NPMSTAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --quiet --strict
	$(BIN)/ruff check referee workers tests bench
	$(BIN)/python -m mypy referee workers bench tests
	$(BIN)/lint-imports
	$(BIN)/python -m pytest $(CPU_XDIST) -m lint
	@if $(NODE_OK); then cd $(JS) && npm run --silent lint; \
	else echo "make: WARNING: no node >= 20: the JavaScript client's lint is SKIPPED" >&2; fi

# mutation testing of the offline audit (issue 22, item 8): referee/audit/*.py,
# referee/engine/chain.py and rng.py (and the signing modules) mutated in memory, one
# mutant at a time, against the audit's fast tests; prints killed / (total -
# equivalent) and every survivor (tests/mutation). ARGS: e.g. ARGS="--no-signing --jobs 2"
.PHONY: mutate
mutate: $(STAMP)
	$(BIN)/python -m tests.mutation $(ARGS)

# the interpreter `make install` creates .venv with
python:
	@$(CHECK_PY); echo "$(PY)"; "$(PY)" --version

clean:
	rm -rf $(VENV) var build site *.egg-info $(JS)/node_modules
