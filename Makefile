# The two commands a newcomer needs: `make build` and `make test`.
# Only python3 and make are assumed; everything else is installed into .venv.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test docs fuzz bench calibrate pictures clean

build: $(STAMP)
	$(BIN)/cardkit build --all examples/lantern-market
	$(BIN)/cardkit build --all --paper letter
	$(BIN)/cardkit build --all --sheet gutterfold
	$(BIN)/cardkit calibrate
	$(BIN)/cardkit calibrate --paper letter
	$(BIN)/cardkit export --all --for tgc
	$(BIN)/cardkit export --all --for drivethru
	$(BIN)/cardkit export --all --to tts
	$(BIN)/cardkit rulebook --all

# Compiled modules and pytest's rewritten test modules are kept (__pycache__, ignored by
# git) even where PYTHONDONTWRITEBYTECODE is set: each worker compiles them otherwise,
# about 10 s of CPU a worker a run.
test: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n auto --dist worksteal -rs

# The docs site, from docs/*.md: open output/docs/index.html (offline, search included).
# -W: a broken cross-reference, a missing picture or a bad docstring fails the build;
# -E: read every page again (a change to conf.py alone is not seen otherwise).
docs: $(STAMP)
	$(BIN)/python -m sphinx -q -E -W --keep-going -b html -d output/docs-doctrees docs output/docs

# The fuzz tests with a few thousand examples each, and the rules checker over thousands of
# games of each example game (make test runs far fewer).
fuzz: $(STAMP)
	CARDKIT_FUZZ_EXAMPLES=3000 CARDKIT_CHECK_GAMES=5000 $(BIN)/python -m pytest \
		tests/test_fuzz.py tests/test_fuzz_files.py \
		tests/test_own_rules.py::test_the_starter_and_lantern_market_pass_the_checker_over_many_games

# The verdicts' false-alarm rates on games whose answer is known, in full (make test runs
# a small version); docs/rules-and-simulation.md records what it prints.
calibrate: $(STAMP)
	$(BIN)/python bench/calibrate.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/poker_bench.py
	$(BIN)/python bench/export_bench.py
	$(BIN)/python bench/simulate_bench.py
	$(BIN)/python bench/toolkit_bench.py
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/watch_bench.py
	$(BIN)/python bench/studio_bench.py

# The docs' pictures (docs/*.png), from the PDFs `make build` writes.
pictures: build
	$(BIN)/python docs/pictures.py

# Re-install whenever the project's metadata changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) output
