# make demo  - set up .venv with packref's runtime dependencies only, and run the main job
# make test  - add what the tests need (developer extras, Debian packages, npm) and run the suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test setup dev system-deps lint bench clean

# Two stamps: the runtime (what `make demo` and a station need) and, on top of it, the
# developer extras (test runners, browsers' driver, linters: several hundred MB more).
setup: $(VENV)/.runtime
dev: $(VENV)/.dev

$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev: $(VENV)/.runtime
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

system-deps:
	bash scripts/system-deps.sh

demo:
	bash scripts/system-deps.sh demo
	$(MAKE) setup
	$(BIN)/packref demo

lint: dev
	$(BIN)/ruff check .

test: system-deps dev node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/pytest

bench: dev
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) node_modules .pytest_cache
