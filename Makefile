# CRUMB — every target sets up what it needs first. `make help` lists them.
SHELL := /bin/bash
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.crumb-installed
CRUMB := $(BIN)/crumb --root .
PITCH ?= 60-second match-3 with combo bonus
PYTEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help setup agents browser demo watch pitch steer replay status studio lint test quick bench chaos prices clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "CRUMB needs Python 3.11 or newer: install python3.11 and run make again")'
	@test -x $(BIN)/python || $(PY) -m venv $(VENV) || { echo "make: cannot create $(VENV): on Debian run 'apt-get install -y python3-venv' and try again"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# a venv made before the rename (pyproject.toml [project].name) holds the editable install as 'crumb': drop it first
	@$(BIN)/python -m pip uninstall --quiet --yes crumb >/dev/null 2>&1 || true
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	@touch $(STAMP)

browser: $(STAMP) ## find a Chromium for QA, installing one when none is found
	@$(BIN)/python -c "import sys; from crumb.qa.browser import main; sys.exit(main(['--ensure']))"

setup: $(STAMP) browser ## create .venv, install CRUMB and a browser

# The real agent CLIs the harness tests run against fake model servers, pinned by tests/agents/package-lock.json.
# Installed once into $(AGENTS); without npm or its registry the tests that need them are skipped, saying why.
AGENTS := .cache/agents
AGENTS_STAMP := $(AGENTS)/.installed
$(AGENTS_STAMP): tests/agents/package.json tests/agents/package-lock.json
	@mkdir -p $(AGENTS) && cp tests/agents/package.json tests/agents/package-lock.json $(AGENTS)/
	@if ! command -v npm >/dev/null; then echo "make: npm not found: the tests against the real agent CLIs will be skipped (install Node.js 20+ and run make agents)"; \
	elif (cd $(AGENTS) && npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1); then touch $@; \
	else echo "make: npm could not install the agent CLIs (see $(AGENTS)/npm.log): the tests against them will be skipped"; fi

agents: $(AGENTS_STAMP) ## install the pinned claude, codex and gemini CLIs the tests use (into .cache/agents)

demo: setup ## pitch "60-second match-3 with combo bonus" on the embedded studio and run it to the end
	@$(CRUMB) run "$(PITCH)"

watch: setup ## run the daemon on this folder (drop files into inbox/ to pitch)
	$(CRUMB) watch

pitch: setup ## pitch a game: make pitch PITCH="..."
	$(CRUMB) pitch "$(PITCH)"

steer: setup ## steer a session: make steer SESSION=... MSG="..."
	@test -n "$(SESSION)" -a -n "$(MSG)" || { echo 'usage: make steer SESSION=<id> MSG="make it red"'; exit 2; }
	$(CRUMB) steer "$(SESSION)" "$(MSG)"

replay: setup ## rebuild a session's state from its transcript: make replay SESSION=...
	@test -n "$(SESSION)" || { echo 'usage: make replay SESSION=<id>'; exit 2; }
	$(CRUMB) replay "$(SESSION)"

status: setup ## where a session stands: make status SESSION=...
	@test -n "$(SESSION)" || { echo 'usage: make status SESSION=<id>'; exit 2; }
	$(CRUMB) status "$(SESSION)"

studio: setup ## open the web Studio on 127.0.0.1:7321
	$(CRUMB) studio

# mypy --strict where the types are the design (protocol, store, reducer, settings, the registries);
# plain mypy (pyproject.toml [tool.mypy]) over the rest of crumb/.
STRICT := crumb/protocol crumb/store crumb/reducer crumb/export crumb/settings.py crumb/genres crumb/actors/harness/registry.py crumb/actors/harness/plugin.py

lint: $(STAMP) ## ruff over the code and tests, mypy --strict on the typed core, plain mypy on all of crumb/
	$(BIN)/ruff check crumb tests bench examples
	$(BIN)/mypy --strict $(STRICT)
	$(BIN)/mypy crumb

test: setup agents lint ## lint, then the whole test suite (real Chromium, real files, real processes)
	$(BIN)/python -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

quick: setup lint ## the inner loop: lint, then the tests not marked browser, slow or chaos_long (five in six of them)
	$(BIN)/python -m pytest -n 2 --dist loadfile -q -m "not browser and not slow and not chaos_long" $(PYTEST_ARGS)

bench: setup ## run the benchmarks under bench/ and print figures with their baselines
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

chaos: setup ## the long chaos run: many sessions, dozens of SIGKILLs, then every check; QA starved of CPU
	$(BIN)/python -m pytest tests/chaos tests/qa/test_starved.py -m chaos_long -q -s $(PYTEST_ARGS)

prices: $(STAMP) ## regenerate crumb/actors/harness/prices.toml from the newest genai-prices (then bump its pin in pyproject.toml)
	$(BIN)/python -m pip install --quiet --upgrade genai-prices
	$(BIN)/python -m crumb.actors.harness.prices_sync

clean: ## remove the virtualenv (sessions and inbox files are kept)
	rm -rf $(VENV) *.egg-info
