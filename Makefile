# make demo  - set up .venv and run the main job
# make test  - set up everything the tests need and run the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test setup system-deps lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
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

lint: setup
	$(BIN)/ruff check .

test: system-deps setup node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/pytest

bench: setup
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) node_modules .pytest_cache
