# storekeep: build, test and demo on a fresh Debian machine.
#   make demo   build and show storekeep working
#   make test   build and run every test
#   make bench  benchmarks against their references (slow: a million records; not part of test)
#   make docs   DocC archives of the libraries an app embeds, in .build/docs

SHELL := /usr/bin/env bash
# zstd (the program): a test repacks an archive with GNU tar, which compresses through it.
SYSTEM_PACKAGES := libarchive-dev libssl-dev libsqlite3-dev zlib1g-dev libzstd-dev pkg-config zstd
# What only `make bench` needs: the references it compares with (bsdtar, the sqlite3 shell) and GNU time.
BENCH_PACKAGES := libarchive-tools sqlite3 time
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test demo bench docs clean

all: build

# Installs the system libraries the package links against, only those that are missing.
deps:
	@missing=""; \
	for package in $(SYSTEM_PACKAGES); do \
	  dpkg -s "$$package" >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y $$missing; \
	fi

build: deps
	swift build

# The end-to-end tests run the built binary, so build it before testing.
test: deps build
	swift test

# The demo migrates a few hundred thousand records: it uses an optimised build.
demo: deps
	swift build -c release
	./scripts/demo.sh

# Release build, generated inputs in Benchmarks/.work, a table of figures with ratios (docs/benchmarks.md).
bench: deps
	@missing=""; \
	for package in $(BENCH_PACKAGES); do \
	  dpkg -s "$$package" >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y $$missing; \
	fi
	./Benchmarks/run.sh

# DocC archives of ObjectModel, XcodeModel and SyncStore (with the "embed in an app" article).
docs: deps
	./scripts/build-docs.sh

clean:
	swift package clean
