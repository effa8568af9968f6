# Two entry points, each bootstrapping its own virtualenv on a fresh machine:
#   make conformance   the conformance suite on the default target (p4sim: p4src/atp.p4)
#   make test          the project's own tests
# and the report of the last conformance run:
#   make report        reports/allure-results -> reports/allure-report/index.html
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
ALLURE_RESULTS ?= reports/allure-results
ALLURE_REPORT ?= reports/allure-report

.PHONY: conformance test bench demo report report-deps constraints clean bfruntime-stubs verbs-emu atp-release \
	p4testgen-regen p4testgen-ptf campaign promote mutation host-mutation

# versions pinned by constraints.txt (regenerate with `make constraints`)
$(VENV)/.installed: pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e .
	touch $@

conformance: $(VENV)/.installed
	$(PY) -m pytest conformance -n auto --alluredir=$(ALLURE_RESULTS) --clean-alluredir $(PYTEST_ARGS)

test: $(VENV)/.installed
	$(PY) -m pytest tests -n auto $(PYTEST_ARGS)

# a deep search until a time budget (docs/campaigns.md): one shard of N, on one example
# database (a directory, redis://HOST:PORT/DB, github:OWNER/REPO, joined by commas);
# new failures become candidates in fixtures/corpus/candidates/
BUDGET ?= 10m
PROFILE ?= deep
SHARD ?= 1/1
TARGET ?= p4sim
EXAMPLE_DB ?= .hypothesis/examples
CAMPAIGN_ARGS ?=
campaign: $(VENV)/.installed
	$(PY) -m atp_fixtures.campaign run --budget=$(BUDGET) --profile=$(PROFILE) \
		--shard=$(SHARD) --target=$(TARGET) --example-db=$(EXAMPLE_DB) $(CAMPAIGN_ARGS)

# a reviewed candidate into the corpus: make promote CANDIDATE=<file> NAME=<what broke>
promote: $(VENV)/.installed
	@test -n "$(CANDIDATE)" -a -n "$(NAME)" || { echo "usage: make promote CANDIDATE=fixtures/corpus/candidates/<file>.json NAME=<what broke>"; exit 2; }
	$(PY) -m atp_fixtures.campaign promote $(CANDIDATE) --name=$(NAME)

bench: $(VENV)/.installed
	$(PY) benchmarks/reference_switch.py
	$(PY) benchmarks/p4sim.py
	$(PY) benchmarks/p4src_target.py
	$(PY) benchmarks/softswitch.py
	$(PY) benchmarks/softswitch_suite.py
	$(PY) benchmarks/host_stack.py
	$(PY) benchmarks/release_host_stack.py
	$(PY) benchmarks/long_jobs.py

# the verbs emulation (verbs_emu/: libibverbs over AF_PACKET) and the ATP release's worker
# and PS built against it by the release's own Makefiles (source: $ATP_RELEASE_SRC or
# ../shared/tools/atp-release/src); see verbs_emu/README.md
verbs-emu:
	$(MAKE) -C verbs_emu

atp-release: $(VENV)/.installed
	$(PY) -m host_stack.release_build

# P4Testgen's Tofino tests (docs/p4testgen.md): regenerate the committed sets where
# P4Testgen is built ($$P4TESTGEN or ../p4testgen/w/build/p4testgen; it says how to build it
# where it is not: tools/p4testgen/README.md), and run every set's PTF file unmodified
# against the softswitch (make test runs the softswitch_ci selection of programs.yaml)
p4testgen-regen: $(VENV)/.installed
	$(PY) tests/p4testgen/regen.py $(P4TESTGEN_ARGS)

p4testgen-ptf: $(VENV)/.installed
	ATP_P4TESTGEN_PTF=all $(PY) -m pytest tests/p4testgen/test_p4testgen_on_softswitch.py -n 0 $(PYTEST_ARGS)

# mutation testing of the host code (cosmic-ray), judged by conformance/test_host_stack.py
# on the softswitch (needs root): every mutant, hours; SAMPLE=n SEED=s for a sample,
# SHARD=i/n a part per machine, RESUME=1 to go on with the run in reports/host-mutation
# (REJUDGE=1 also judges its undeclared survivors again), LEDGER=tests/mutation/ledger.json
# to take the verdicts recorded there and record the run's (a run across machines and
# sessions). Report: reports/host-mutation/report.json; see docs/host-mutation.md
host-mutation: $(VENV)/.installed
	$(PY) -m tests.mutation.host_mutation $(if $(SAMPLE),--sample $(SAMPLE) --seed $(or $(SEED),0)) $(if $(SHARD),--shard $(SHARD)) $(if $(RESUME),--resume) $(if $(REJUDGE),--rejudge) $(if $(LEDGER),--ledger $(LEDGER))

# ATP training over veths and network namespaces (needs root); see host_stack/demo.py
demo: $(VENV)/.installed
	$(PY) -m host_stack.demo

# How strong is the gate: every mutant of atp.p4 (both builds) against the conformance
# suite on p4sim (docs/mutation.md): reports/mutation.json, allure results per mutant.
# Hours on a shared 2-core machine; MUTATION_ARGS="--p4-build=tofino --resume" etc.
MUTATION_ARGS ?=
mutation: $(VENV)/.installed
	nice -n 5 $(PY) -m atp_fixtures.mutation run --alluredir=reports/allure-results-mutation $(MUTATION_ARGS)

# Allure 3 (Node, no Java) and playwright-core, at the versions of reports/package-lock.json
reports/node_modules/.installed: reports/package.json reports/package-lock.json
	@command -v npm >/dev/null || { echo "make report needs Node.js >= 20 and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	cd reports && npm ci --no-audit --no-fund --loglevel=error
	touch $@

report-deps: reports/node_modules/.installed

report: reports/node_modules/.installed
	@test -d $(ALLURE_RESULTS) || { echo "no $(ALLURE_RESULTS): run 'make conformance' (or pytest --alluredir=$(ALLURE_RESULTS)) first"; exit 1; }
	ATP_ALLURE_RESULTS=$(abspath $(ALLURE_RESULTS)) reports/node_modules/.bin/allure generate \
		--config reports/allurerc.mjs --output $(ALLURE_REPORT) $(ALLURE_RESULTS)
	@echo "report: $(ALLURE_REPORT)/index.html"

constraints: $(VENV)/.installed
	{ sed -n '1,4p' constraints.txt; $(PY) -m pip freeze --exclude-editable | grep -v '^#' \
		| sed 's/$$/ ; python_version >= "3.11"/'; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

# everything a run writes (keep in step with .gitignore; tests/reports/test_output_folders.py)
RUN_OUTPUTS := reports/allure-results reports/allure-results-release \
	reports/allure-results-host-stack reports/allure-results-real-packets \
	reports/allure-results-softswitch reports/summary-softswitch.json \
	reports/summary-softswitch-hosts.json \
	reports/allure-report reports/artifacts reports/summary.json \
	reports/summary-tofino-model.json reports/p4-coverage-spec.json \
	reports/p4-coverage-atp-release.json reports/campaign reports/mutation.json \
	reports/mutation-ci.json reports/allure-results-mutation reports/allure-report-mutation \
	reports/host-mutation

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis reports/node_modules $(RUN_OUTPUTS) \
		verbs_emu/build build/atp-release

# Regenerate the checked-in BfRuntime messages (bfruntime/bfruntime_pb2.py) from
# bfruntime/bfruntime.proto; google/rpc/status.proto comes from googleapis-common-protos.
# The service's stub and server handlers are bfruntime/service.py (no generated servicer).
# The file is compiled as "bfruntime.proto" (-I bfruntime), the name the SDE's stubs
# register, so that both sets of stubs load in one process (bfruntime/bfruntime.proto).
bfruntime-stubs: $(VENV)/.installed
	$(PY) -m grpc_tools.protoc -Ibfruntime \
	  -I"$$($(PY) -c 'import os, google.rpc.status_pb2 as m; print(os.path.dirname(os.path.dirname(os.path.dirname(m.__file__))))')" \
	  --python_out=bfruntime bfruntime/bfruntime.proto
