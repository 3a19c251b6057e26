# The two commands: `make run` and `make test`. Everything else is set-up they share.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GEN := gen
PROTOS := $(shell find proto -name '*.proto' 2>/dev/null)
GEN_STAMP := $(GEN)/.stamp
ADDRESS ?= localhost:50051

.PHONY: run test setup proto web bench clean

# The compiled copy of the refutation search (solver/core/compiled.py): rebuilt when its source
# changed, skipped in a second otherwise; without a C compiler the pure-Python module serves.
setup: $(STAMP) $(GEN_STAMP)
	$(BIN)/python -m solver.core.compiled build

# --no-compile: bytecode is written on first import for the modules used, not for all of ray & co.
# (the install takes ~24 s instead of ~50 s on the 2-core machine, 7 Dec)
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --no-compile --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	$(BIN)/python -c 'import sysconfig,os; open(os.path.join(sysconfig.get_paths()["purelib"],"gardens-gen.pth"),"w").write(os.path.abspath("$(GEN)")+"\n")'
	touch $(STAMP)

# Generated protobuf code lives in gen/ (git-ignored), never hand-edited.
$(GEN_STAMP): $(STAMP) $(PROTOS)
	rm -rf $(GEN) && mkdir -p $(GEN)
	if [ -n "$(PROTOS)" ]; then $(BIN)/python -m grpc_tools.protoc -Iproto --python_out=$(GEN) --pyi_out=$(GEN) --grpc_python_out=$(GEN) $(PROTOS); fi
	find $(GEN) -type d -exec touch {}/__init__.py \;
	touch $(GEN_STAMP)

proto: $(GEN_STAMP)

# The browser page: client stubs generated from proto/ and bundled into web/dist (node + npm).
WEB_STAMP := web/dist/.stamp
WEB_SOURCES := $(shell find web/src web/static -type f 2>/dev/null) web/build.mjs web/package-lock.json
$(WEB_STAMP): $(GEN_STAMP) $(PROTOS) $(WEB_SOURCES)
	cd web && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && npm run build --silent
	touch $(WEB_STAMP)

web: $(WEB_STAMP)

# gRPC server + Envoy (gRPC-Web) + the page; prints GRPC, ENVOY and PAGE addresses.
run: setup web
	GARDENS_PREPARE_PUZZLES=$${GARDENS_PREPARE_PUZZLES-all} $(BIN)/python -m server.web --address $(ADDRESS)

# The suite runs on TEST_JOBS processes (pytest-xdist; one per usable core, within a container's CPU quota, at
# most 4: tests/jobs.py), then the tests marked `serial` (wall-clock margins of 0.5 s and less) run alone. On the
# 2-core machine: ~7 min instead of ~14.5 (7 Dec). --durations: the slowest tests are listed, to keep `make test`
# within its 15-minute budget.
TEST_JOBS ?= $(shell $(PY) tests/jobs.py 2>/dev/null || echo 1)
test: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) -m "not serial" --durations=15
	$(BIN)/python -m pytest -q -p no:cacheprovider -m serial

bench: setup
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(GEN) web/node_modules web/dist web/gen
