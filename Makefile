# libjump - build, demo, tests and benchmarks. `make demo` and `make test` work on a fresh machine.
SWIFT     ?= swift
PYTHON    ?= python3
CC        ?= cc
BUILD     := build
LIB       := $(BUILD)/lib/libjump.so
EMULATOR  := $(BUILD)/bin/jump-emulator
CFLAGS    ?= -std=c99 -Wall -Wextra -Werror -O1 -g
EXAMPLE_C := $(BUILD)/bin/quickstart

.PHONY: all deps lib emulator examples demo test test-swift test-c test-python test-abi bench torture clean

all: lib emulator

# System packages: installed when run as root, otherwise the exact install line is printed.
deps:
	@bash scripts/ensure-deps.sh

lib: deps
	$(SWIFT) build -c release --product jump
	@mkdir -p $(BUILD)/lib
	cp .build/release/libjump.so $(LIB).tmp && mv -f $(LIB).tmp $(LIB)  # a new inode: running processes keep the old file
	ln -sf libjump.so $(BUILD)/lib/libjump.so.1

emulator: deps
	$(SWIFT) build --product jump-emulator
	@mkdir -p $(BUILD)/bin
	cp .build/debug/jump-emulator $(EMULATOR).tmp && mv -f $(EMULATOR).tmp $(EMULATOR)

$(EXAMPLE_C): examples/c/quickstart.c include/jump.h
	@mkdir -p $(BUILD)/bin
	$(CC) $(CFLAGS) -Iinclude -o $@ examples/c/quickstart.c -ldl

examples: $(EXAMPLE_C)

demo: lib emulator examples
	@bash scripts/with-emulator.sh $(EXAMPLE_C) $(LIB)

test: lib emulator
	@bash scripts/run-tests.sh

test-swift: lib emulator
	@bash scripts/run-tests.sh swift

test-c: lib emulator
	@bash scripts/run-tests.sh c

test-python: lib emulator
	@bash scripts/run-tests.sh python

test-abi: lib
	@bash scripts/run-tests.sh abi

bench: lib emulator
	@bash benchmarks/run.sh

# Kill -9 and storage-fault suite (Tests/torture/README.md); not part of `make test`.
torture: lib emulator
	@bash Tests/torture/run.sh

clean:
	rm -rf $(BUILD) .build
