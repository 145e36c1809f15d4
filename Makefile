# `make report` and `make test` set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# e.g. make report REPORT_ARGS="--full --dask-workers 2"
report: $(STAMP)
	$(BIN)/cardsim report $(REPORT_ARGS)

# one pytest worker per core this process may use (nproc honours CPU affinity);
# make test TEST_WORKERS=0 runs the suite in one process
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
test: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) reports/*.png reports/index.html
