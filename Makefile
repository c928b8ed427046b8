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

.PHONY: run test bench soak install lint clean python

# one shell line: refuse (exit 2) with a message when no good Python was found
CHECK_PY = test -n "$(PY)" || { echo "make: need Python >= 3.11: none of $(PY_CANDIDATES) on PATH runs as one; \
install one or pass PY=/path/to/python3.x" >&2; exit 2; }; \
"$(PY)" -c '$(PY_OK)' >/dev/null 2>&1 || { echo "make: PY=$(PY) is not a Python >= 3.11 that runs" >&2; exit 2; }

$(STAMP): pyproject.toml
	@$(CHECK_PY)
	test -x $(BIN)/python || "$(PY)" -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/referee run

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

soak: $(STAMP)
	$(BIN)/python -m bench soak 1000

lint: $(STAMP)
	$(BIN)/ruff check --select F,E9 referee workers tests bench
	$(BIN)/python -m mypy referee workers
	$(BIN)/lint-imports

# the interpreter `make install` creates .venv with
python:
	@$(CHECK_PY); echo "$(PY)"; "$(PY)" --version

clean:
	rm -rf $(VENV) var build *.egg-info
