# Two entry points, each bootstrapping its own virtualenv on a fresh machine:
#   make conformance   the conformance suite on the default (embedded) target
#   make test          the project's own tests
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: conformance test bench demo clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

conformance: $(VENV)/.installed
	$(PY) -m pytest conformance -n auto $(PYTEST_ARGS)

test: $(VENV)/.installed
	$(PY) -m pytest tests -n auto $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(PY) benchmarks/reference_switch.py
	$(PY) benchmarks/p4sim.py

# ATP training over veths and network namespaces (needs root); see host_stack/demo.py
demo: $(VENV)/.installed
	$(PY) -m host_stack.demo

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis reports/allure-results
