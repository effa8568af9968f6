# Two entry points, each bootstrapping its own virtualenv on a fresh machine:
#   make conformance   the conformance suite on the default (embedded) target
#   make test          the project's own tests
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: conformance test bench clean bfruntime-stubs

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

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis reports/allure-results

# Regenerate the checked-in BfRuntime stubs (bfruntime/bfruntime_pb2*.py) from
# bfruntime/bfruntime.proto; google/rpc/status.proto comes from googleapis-common-protos.
bfruntime-stubs: $(VENV)/.installed
	$(PY) -m pip install --quiet "grpcio-tools>=1.62"
	$(PY) -m grpc_tools.protoc -I. \
	  -I"$$($(PY) -c 'import os, google.rpc.status_pb2 as m; print(os.path.dirname(os.path.dirname(os.path.dirname(m.__file__))))')" \
	  --python_out=. --grpc_python_out=. bfruntime/bfruntime.proto
