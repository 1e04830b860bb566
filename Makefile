# Two commands do everything on a fresh Debian 12 machine with the Swift toolchain:
#   make run [FILE=x.pdf]   install what is missing, build, open the PDF in the editor
#   make test               install what is missing, build, run the whole test suite

FILE ?= Resources/sample.pdf
SWIFT ?= swift
# System packages: the C libraries Redline links, the C++ library TOMLKit's parser builds against, fonts for
# markup text, and the independent readers tests use.
APT_PACKAGES := pkg-config libncursesw5-dev libpoppler-glib-dev libcairo2-dev libqpdf-dev libchafa-dev zlib1g-dev \
	libstdc++-12-dev ncurses-term fonts-dejavu-core tmux poppler-utils qpdf python3-venv
VENV := .build-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The fuzzing harness (Tests/Fuzz): `make test` runs a fixed seed over a few hundred hostile documents;
# `make fuzz` runs as long as asked (FUZZ_SECONDS) from any seed, keeping failing documents in .build-fuzz/.
FUZZ_SEED ?= 1
FUZZ_CASES ?= 300
FUZZ_SECONDS ?= 600

.PHONY: run test build setup system-packages test-tools bench fuzz fuzz-smoke clean

run: setup build
	.build/debug/redline "$(FILE)"

test: setup test-tools
	REDLINE_PYTHON="$(CURDIR)/$(VENV)/bin/python" $(SWIFT) test
	$(MAKE) --no-print-directory fuzz-smoke

fuzz-smoke: test-tools build
	$(VENV)/bin/python Tests/Fuzz/fuzz.py --binary .build/debug/redline --seed $(FUZZ_SEED) --cases $(FUZZ_CASES) \
		--failures .build-fuzz/failures

fuzz: setup test-tools build
	$(VENV)/bin/python Tests/Fuzz/fuzz.py --binary .build/debug/redline --seed $(FUZZ_SEED) --seconds $(FUZZ_SECONDS) \
		--failures .build-fuzz/failures

build:
	$(SWIFT) build

bench: setup
	$(SWIFT) build -c release
	.build/release/redline bench "$(FILE)"

setup: system-packages

# Installs only what is missing, so a ready machine pays nothing.
system-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# pikepdf reads PDF structure independently of Redline's own qpdf code, for the tests' checks.
test-tools: $(VENV)/.ready

$(VENV)/.ready:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet pikepdf
	touch $@

clean:
	rm -rf .build $(VENV) .build-fuzz
