# libjump - build, demo, tests and benchmarks. `make demo` and `make test` work on a fresh machine.
SWIFT     ?= swift
PYTHON    ?= python3
CC        ?= cc
BUILD     := build
LIB       := $(BUILD)/lib/libjump.so
EMULATOR  := $(BUILD)/bin/jump-emulator
CFLAGS    ?= -std=c99 -Wall -Wextra -Werror -O1 -g
EXAMPLE_C := $(BUILD)/bin/quickstart

.PHONY: all deps lib emulator examples demo test test-swift test-c test-python test-node conformance test-abi test-install \
        test-csharp test-go test-java test-rust test-deps bench torture sanitize valgrind fuzz node-addon install uninstall dist wheel sdist npm nuget jar generate clean

# Installation layout (GNU conventions); DESTDIR stages a package root.
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
CMAKEDIR   ?= $(LIBDIR)/cmake/jump
# The version has one source: include/jump.h.
VERSION    := $(shell sed -n 's/^\#define JUMP_VERSION "\(.*\)"/\1/p' include/jump.h)
SONAME_MAJOR := $(shell sed -n 's/^\#define JUMP_ABI_VERSION \([0-9]*\)/\1/p' include/jump.h)

all: lib emulator

# System packages: installed when run as root, otherwise the exact install line is printed.
deps:
	@bash scripts/ensure-deps.sh

# libstdc++ is linked in statically (the Swift runtime's C++ needs it): loading libstdc++.so cost more at
# dlopen than all of libjump. The link looks in build/gen/static-cxx first, where only the archive is.
STATIC_CXX := $(BUILD)/gen/static-cxx
lib: deps
	@mkdir -p $(STATIC_CXX)
	@archive=$$($(CC) -print-file-name=libstdc++.a); [ -f "$$archive" ] || { echo "libstdc++.a not found (install g++)" >&2; exit 1; }; \
	    ln -sf "$$archive" $(STATIC_CXX)/libstdc++.a
	$(SWIFT) build -c release --product jump
	@mkdir -p $(BUILD)/lib
	cp .build/release/libjump.so $(LIB).tmp && mv -f $(LIB).tmp $(LIB)  # a new inode: running processes keep the old file
	ln -sf libjump.so $(BUILD)/lib/libjump.so.1

# Standalone: release, with the Swift runtime linked in, so it runs where no Swift toolchain is (ldd names no
# Swift library). EMULATOR_BUILD=debug gives a quicker build while working on the emulator itself.
EMULATOR_BUILD ?= release
emulator: deps
	$(SWIFT) build -c $(EMULATOR_BUILD) --product jump-emulator --static-swift-stdlib
	@mkdir -p $(BUILD)/bin
	cp .build/$(EMULATOR_BUILD)/jump-emulator $(EMULATOR).tmp && mv -f $(EMULATOR).tmp $(EMULATOR)

# The bindings' FFI declarations and status tables (Python's ctypes SIGNATURES, the C tests' loader list, C#'s
# P/Invokes, Java's JNI glue and native declarations, the status tables of Python, C#, Node.js and Java; the
# backends in scripts/generators/), written from include/jump_api.json. The files are
# committed; `make test-abi` fails while one differs from what this writes. Needs nothing built.
generate:
	$(PYTHON) scripts/generate-bindings.py

$(EXAMPLE_C): examples/c/quickstart.c include/jump.h
	@mkdir -p $(BUILD)/bin
	$(CC) $(CFLAGS) -Iinclude -o $@ examples/c/quickstart.c -ldl

examples: $(EXAMPLE_C)

# The Node.js addon (bindings/node): plain cc, no node-gyp and nothing downloaded. N-API only (NAPI_VERSION 8),
# so one build loads in every Node.js >= 18; the N-API symbols resolve from the node binary at load time, so
# nothing of node is linked. libjump is linked (-ljump) and found through the rpath $$ORIGIN/../lib
# (build/lib here; lib/ next to an installed node/ directory), else through the system's library path.
NODE_ADDON   := $(BUILD)/node/jump.node
NODE_INCLUDE ?= /usr/include/node
NODE_CFLAGS  ?= -std=c99 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g
NODE_SOURCES := $(sort $(wildcard bindings/node/src/*.c))
$(NODE_ADDON): $(NODE_SOURCES) $(wildcard bindings/node/src/*.h) include/jump.h $(LIB)
	@mkdir -p $(BUILD)/node
	$(CC) $(NODE_CFLAGS) -shared -fPIC -fvisibility=hidden -pthread -Iinclude -I$(NODE_INCLUDE) -o $@.tmp \
	    $(NODE_SOURCES) -L$(BUILD)/lib -ljump -Wl,-rpath,'$$ORIGIN/../lib' && mv -f $@.tmp $@

node-addon: $(NODE_ADDON)

demo: lib emulator examples
	@bash scripts/with-emulator.sh $(EXAMPLE_C) $(LIB)

# What the tests need beyond the build (Chromium, selenium, mypy, pytest, Mono, Node.js, gdb...), checked before
# anything is built: installed when run as root (or with passwordless sudo), otherwise make stops with the exact
# commands to run. Each test-SUITE asks only for its own suite's (make test-csharp installs Mono, not Chromium).
# The build's packages are among them, so a machine that lacks both hears of all of them at once.
TEST_SUITES := swift c python node csharp go java rust abi install
.PHONY: $(addprefix test-deps-,$(TEST_SUITES))
test-deps:
	@bash scripts/ensure-deps.sh --test
$(addprefix test-deps-,$(TEST_SUITES)): test-deps-%:
	@bash scripts/ensure-deps.sh --test $*

test: test-deps lib emulator
	@bash scripts/run-tests.sh

test-swift: test-deps-swift lib emulator
	@bash scripts/run-tests.sh swift

test-c: test-deps-c lib emulator
	@bash scripts/run-tests.sh c

test-python: test-deps-python lib emulator
	@bash scripts/run-tests.sh python

test-node: test-deps-node lib emulator $(NODE_ADDON)
	@bash scripts/run-tests.sh node

test-abi: test-deps-abi lib
	@bash scripts/run-tests.sh abi

test-install: test-deps-install lib emulator
	@bash scripts/run-tests.sh install

# The C# binding (bindings/csharp), built and run with Mono.
test-csharp: test-deps-csharp lib emulator
	@bash scripts/run-tests.sh csharp

# The Go binding (bindings/go, cgo) and its examples (examples/go), with Debian's Go; nothing downloaded.
test-go: test-deps-go lib emulator
	@bash scripts/run-tests.sh go

# The Java binding (bindings/java): javac, the JNI glue built with cc, its own test runner (no JUnit).
test-java: test-deps-java lib emulator
	@bash scripts/run-tests.sh java

# The Rust binding (bindings/rust), built with Debian's cargo (Rust 1.63) and any other on PATH.
test-rust: test-deps-rust lib emulator
	@bash scripts/run-tests.sh rust

# The conformance suite (Tests/conformance) across the six bindings: each one's runner plays every scenario
# afresh, then check.py compares them with "expect" and with each other (fails on any disagreement).
conformance: lib emulator
	@bash Tests/conformance/all.sh

$(BUILD)/man/jump.3: include/jump.h include/jump_api.json scripts/make-man.py
	@mkdir -p $(BUILD)/man
	$(PYTHON) scripts/make-man.py include/jump.h $@

# Every function of the API (include/jump_api.json) gets a man page name: jump_client_sign_in.3 holds
# `.so man3/jump.3`, so `man jump_client_sign_in` shows jump(3). Read when install runs (=, not :=).
JUMP_FUNCTIONS = $(shell $(PYTHON) -c 'import json, sys; print(" ".join(f["name"] for f in json.load(open(sys.argv[1]))["functions"]))' include/jump_api.json)
# The CMake package config finds its prefix from where it is installed (relocatable: DESTDIR, moved trees).
CMAKE_SUBST = -e 's|@VERSION@|$(VERSION)|g' -e 's|@SONAME_MAJOR@|$(SONAME_MAJOR)|g' \
    -e "s|@PREFIX_FROM_CMAKEDIR@|$$(realpath -m --relative-to='$(CMAKEDIR)' '$(PREFIX)')|g" \
    -e "s|@LIBDIR_FROM_PREFIX@|$$(realpath -m --relative-to='$(PREFIX)' '$(LIBDIR)')|g" \
    -e "s|@INCLUDEDIR_FROM_PREFIX@|$$(realpath -m --relative-to='$(PREFIX)' '$(INCLUDEDIR)')|g"

# libjump.so.$(VERSION) (stripped; its debug info apart, found through .gnu_debuglink) <- libjump.so.1
# (the soname) <- libjump.so (for -ljump), jump.h, jump_api.json (the API as data, for binding generators),
# jump.pc, the CMake package config (find_package(jump) -> jump::jump), the jump(3) man page (made from jump.h)
# with a name for every function, and the standalone emulator (stripped).
# The stripped files are made once per build of what they come from (install and dist both use them).
$(BUILD)/libjump.so.$(VERSION): $(LIB)
	objcopy --only-keep-debug $(LIB) $(BUILD)/libjump.so.$(VERSION).debug
	strip --strip-unneeded -o $@ $(LIB)
	cd $(BUILD) && objcopy --add-gnu-debuglink=libjump.so.$(VERSION).debug libjump.so.$(VERSION)

$(BUILD)/jump-emulator.stripped: $(EMULATOR)
	strip --strip-unneeded -o $@ $(EMULATOR)

install: lib emulator $(BUILD)/man/jump.3 $(BUILD)/libjump.so.$(VERSION) $(BUILD)/jump-emulator.stripped
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(CMAKEDIR)
	install -m 0755 $(BUILD)/libjump.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libjump.so.$(VERSION)
	install -m 0644 $(BUILD)/libjump.so.$(VERSION).debug $(DESTDIR)$(LIBDIR)/libjump.so.$(VERSION).debug
	ln -sf libjump.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libjump.so.$(SONAME_MAJOR)
	ln -sf libjump.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/libjump.so
	install -m 0644 include/jump.h $(DESTDIR)$(INCLUDEDIR)/jump.h
	install -m 0644 include/jump_api.json $(DESTDIR)$(INCLUDEDIR)/jump_api.json
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' scripts/jump.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/jump.pc
	sed $(CMAKE_SUBST) scripts/jumpConfig.cmake.in > $(DESTDIR)$(CMAKEDIR)/jumpConfig.cmake
	sed $(CMAKE_SUBST) scripts/jumpConfigVersion.cmake.in > $(DESTDIR)$(CMAKEDIR)/jumpConfigVersion.cmake
	install -m 0644 $(BUILD)/man/jump.3 $(DESTDIR)$(MANDIR)/man3/jump.3
	@functions="$(JUMP_FUNCTIONS)"; [ -n "$$functions" ] || { echo "no functions in include/jump_api.json" >&2; exit 1; }; \
	    for f in $$functions; do echo '.so man3/jump.3' > $(DESTDIR)$(MANDIR)/man3/$$f.3; done; \
	    echo "installed $$(echo $$functions | wc -w) man page names (.so man3/jump.3) in $(DESTDIR)$(MANDIR)/man3"
	install -m 0755 $(BUILD)/jump-emulator.stripped $(DESTDIR)$(BINDIR)/jump-emulator

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libjump.so $(DESTDIR)$(LIBDIR)/libjump.so.$(SONAME_MAJOR) \
	      $(DESTDIR)$(LIBDIR)/libjump.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libjump.so.$(VERSION).debug \
	      $(DESTDIR)$(INCLUDEDIR)/jump.h $(DESTDIR)$(INCLUDEDIR)/jump_api.json $(DESTDIR)$(PKGCONFIGDIR)/jump.pc \
	      $(DESTDIR)$(MANDIR)/man3/jump.3 $(foreach f,$(JUMP_FUNCTIONS),$(DESTDIR)$(MANDIR)/man3/$(f).3) \
	      $(DESTDIR)$(CMAKEDIR)/jumpConfig.cmake $(DESTDIR)$(CMAKEDIR)/jumpConfigVersion.cmake \
	      $(DESTDIR)$(BINDIR)/jump-emulator
	-rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null

# A release tarball of what install installs, laid out under /usr/local (untar it at /):
# build/dist/libjump-$(VERSION)-linux-$(ARCH).tar.gz.
ARCH := $(shell uname -m)
DIST := $(BUILD)/dist/libjump-$(VERSION)-linux-$(ARCH).tar.gz
dist: lib emulator $(BUILD)/man/jump.3
	rm -rf $(BUILD)/dist/stage && mkdir -p $(BUILD)/dist/stage
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(BUILD)/dist/stage PREFIX=/usr/local
	tar -C $(BUILD)/dist/stage --owner=0 --group=0 --sort=name -czf $(DIST) usr
	rm -rf $(BUILD)/dist/stage
	@echo "$(DIST)"

# The Python package (distribution libjump, import name jump) as a manylinux wheel with libjump.so (stripped)
# inside and libcurl, jansson and their libraries bundled (auditwheel repair):
# build/wheels/libjump-$(VERSION)-py3-none-manylinux_2_X_<arch>.whl (scripts/build-wheel.sh says how and why).
wheel: lib
	@bash scripts/ensure-deps.sh --package wheel
	@bash scripts/build-wheel.sh $(LIB) $(BUILD)/wheels

# Its sdist, build/wheels/libjump-$(VERSION).tar.gz: Python code only; a build from it uses the installed
# libjump (pkg-config or JUMP_LIBRARY_PATH). Needs no libjump.so here.
sdist:
	@bash scripts/ensure-deps.sh --package wheel
	@bash scripts/build-sdist.sh $(BUILD)/wheels

# The npm package, build/dist/libjump-$(VERSION).tgz: the addon built by node-gyp against the installed Node.js
# headers (nothing downloaded) with libjump.so next to it (rpath $$ORIGIN), and beside them libcurl, its TLS
# library and jansson, bundled (patchelf; scripts/package-common.sh): it needs only the C library's own.
# scripts/build-npm.sh says how.
npm: lib
	@bash scripts/ensure-deps.sh --package npm
	@bash scripts/build-npm.sh $(LIB) $(BUILD)/dist

# The NuGet package, build/dist/Jump.$(VERSION).nupkg: Jump.dll (net472, built by mcs) and, under
# runtimes/linux-<arch>/native, libjump.so as make install installs it (stripped) with libcurl, its TLS library
# and jansson bundled beside it (as in the npm package); Debian's nuget packs it.
# scripts/build-nuget.sh says how, bindings/csharp/Jump.nuspec why.
nuget: lib $(BUILD)/libjump.so.$(VERSION)
	@bash scripts/ensure-deps.sh --package nuget
	@bash scripts/build-nuget.sh $(BUILD)/libjump.so.$(VERSION) $(BUILD)/dist

# The Java binding's jar, build/dist/jump-$(VERSION).jar, and its Maven coordinates, build/dist/jump-$(VERSION).pom
# (io.libjump:jump): the classes, and the JNI glue and libjump.so (stripped) under native/linux-<arch>/, which the
# binding extracts and loads, with libcurl, its TLS library and jansson bundled beside them; and beside the jar
# jump-$(VERSION)-sources.jar and jump-$(VERSION)-javadoc.jar. bindings/java/build.sh says how. The library it packs is $(LIB) as it is: not a
# prerequisite to build here (make lib builds it), only a file to rebuild after.
jar: $(wildcard $(LIB))
	@bash scripts/ensure-deps.sh --package jar
	@bash bindings/java/build.sh --jar

bench: lib emulator
	@bash benchmarks/run.sh

# Kill -9 and storage-fault suite (Tests/torture/README.md); not part of `make test`.
torture: lib emulator
	@bash Tests/torture/run.sh

# libjump under ASan, then TSan: the C suite and a quick torture under each (scripts/sanitize.sh);
# not part of `make test`. SANITIZERS="address" or "thread" runs one.
SANITIZERS ?= address thread
sanitize: test-deps-c emulator
	@bash scripts/sanitize.sh $(SANITIZERS)

# The C suite's asynchronous programs (fibers, the pool, the I/O loop) under Valgrind's memcheck, which must
# find 0 errors (scripts/valgrind.sh); not part of `make test`. VALGRIND_PROGRAMS names others.
VALGRIND_PROGRAMS ?= test_async test_social_async
valgrind: test-deps-c lib emulator
	@bash scripts/valgrind.sh $(VALGRIND_PROGRAMS)

# libFuzzer over every parser of outside input and over the whole C API (scripts/fuzz.sh, Tests/fuzz/README.md);
# not part of `make test`. FUZZ_SECONDS per target (default 60); FUZZ_TARGETS="abi config" runs some.
FUZZ_TARGETS ?=
fuzz: test-deps-c emulator
	@bash scripts/fuzz.sh $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) .build
