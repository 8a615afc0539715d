# The two commands of the README's quick start: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: demo test test-slow bench schema clean editor

# The venv starts without pip: ensurepip alone takes about 4 s. uv (from PyPI) is put in it by
# the host's pip (pip --python, pip 22.3 or later) or else by the venv's own pip.
$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit("judge needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv --without-pip $(VENV)

# uv installs the same packages several times faster than pip, and pip itself too (judge
# gradescope builds wheels with it); pip does it all where uv cannot be had or fails.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
OWN_PIP := { $(BIN)/python -m pip --version >/dev/null 2>&1 || $(BIN)/python -m ensurepip --upgrade >/dev/null; }
GET_UV := [ -x $(BIN)/uv ] \
	|| $(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check uv >/dev/null 2>&1 \
	|| { $(OWN_PIP) && $(PIP) uv >/dev/null 2>&1; }
define install
	@if $(GET_UV); then \
		echo "installing $(1) with uv"; \
		$(BIN)/uv pip install --quiet --python $(BIN)/python --config-settings editable_mode=compat -e '$(1)' pip \
		|| { $(OWN_PIP) && $(PIP) --config-settings editable_mode=compat -e '$(1)'; }; \
	else \
		echo "installing $(1) with pip"; \
		$(OWN_PIP) && $(PIP) --config-settings editable_mode=compat -e '$(1)'; \
	fi
endef

# The C extension (judge/run/sandbox/_fastspawn.c) is built by the install: a change to it reinstalls.
$(STAMP): pyproject.toml setup.py judge/run/sandbox/_fastspawn.c | $(BIN)/python
	$(call install,.)
	touch $@

$(TEST_STAMP): pyproject.toml setup.py judge/run/sandbox/_fastspawn.c | $(BIN)/python
	$(call install,.[test])
	touch $(STAMP) $@

# The code editor of the web judge's submit form: Ace, a maintained editor, taken from the npm
# registry at a pinned version (npm checks the package's integrity) and served by the judge
# itself (no CDN). Not in git: it is the registry's package, not ours. Without npm, the form is
# a plain textarea, which is also what a browser without scripts gets.
ACE_VERSION := 1.45.2
ACE := judge/web/static/ace
ACE_MODES := c_cpp python java kotlin scala csharp golang rust javascript typescript haskell ocaml \
	pascal fortran ruby php lua perl prolog lisp text
$(ACE)/.fetched:
	@if command -v npm >/dev/null 2>&1 && tmp=$$(mktemp -d) \
		&& (cd $$tmp && npm pack --silent ace-builds@$(ACE_VERSION) >/dev/null 2>&1 && tar xzf ace-builds-$(ACE_VERSION).tgz); then \
		mkdir -p $(ACE) && src=$$tmp/package/src-min-noconflict \
		&& cp $$src/ace.js $$src/ext-searchbox.js $(foreach m,$(ACE_MODES),$$src/mode-$(m).js) $(ACE)/ \
		&& cp $$tmp/package/LICENSE $(ACE)/LICENSE && echo "$(ACE_VERSION)" > $@ \
		&& echo "code editor: Ace $(ACE_VERSION) from the npm registry in $(ACE)"; \
		rm -rf $$tmp; \
	else echo "code editor: npm or the registry is not available, so the submit form stays a plain textarea"; fi

editor: $(ACE)/.fetched

# The main job: make every problem's tests, check them, and grade the bundled class
# (reports/index.html). A rerun only judges submissions that changed.
demo: $(STAMP) editor
	$(BIN)/judge gen
	$(BIN)/judge validate
	$(BIN)/judge grade submissions -o reports

# Lint and format (ruff) and types (strict mypy over the package) first, seconds; then the test suite
# (pytest-xdist: one process per core, at most four, a test file's tests in one of them; much
# of a test's time is spent waiting on sandboxes, compilers and clocks), then the
# problems themselves: a broken test file or a reference solution that no longer gets its
# verdict fails the build (judge verify, about a minute on two cores). The 25 slowest tests
# are listed at the end, so that a run says where the ten minutes went.
test: $(TEST_STAMP) editor
	$(BIN)/ruff check judge tests bench
	$(BIN)/ruff format --check judge tests bench
	$(BIN)/python -m mypy judge
	$(BIN)/python -m pytest -q -m "not slow" -n auto --maxprocesses 4 --dist loadfile --durations 25
	$(BIN)/judge verify --junit reports/verify.xml
	$(BIN)/python tests/author/check_verify_junit.py reports/verify.xml

# The long end-to-end tier (judge hosts and their failures, thirty students at once, eight
# judges at once, problemtools as referee of the exports, explain on the slowest programs):
# about five minutes more. CI runs it after make test.
test-slow: $(TEST_STAMP) editor
	$(BIN)/python -m pytest -q -m slow

bench: $(TEST_STAMP)
	$(BIN)/python bench/bench_solver.py
	$(BIN)/python bench/bench_runner.py
	$(BIN)/python bench/bench_peers.py
	$(BIN)/python bench/bench_gen.py
	$(BIN)/python bench/bench_grading.py
	$(BIN)/python bench/bench_explain.py
	$(BIN)/python bench/bench_functions.py
	$(BIN)/python bench/bench_web_drain.py
	$(BIN)/python bench/bench_unit.py
	$(BIN)/python bench/bench_tests.py

schema: $(STAMP)
	$(BIN)/judge schema

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
