# InviteKit: `make demo` and `make test` work on a fresh Debian machine (run as root).
SHELL := /bin/bash
DEB_PACKAGES := libsecp256k1-dev libsodium-dev libssl-dev zlib1g-dev libqrencode-dev libpng-dev zbar-tools libsqlite3-dev python3 python3-venv
BIN_DEBUG := .build/debug/invitekit
BIN_RELEASE := .build/release/invitekit

.PHONY: all deps venv build build-debug test demo vectors bench fuzz asan clean
SECONDS ?= 30

all: build

# Install only the Debian packages that are missing.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# The nostr-sdk interop peer and the nostr-relay test relay, in .venv.
venv: deps
	@scripts/peer/setup.sh

build: deps
	swift build -c release --product invitekit

build-debug: deps
	swift build --build-tests

# The Python fixtures check themselves first; swift test runs last so its summary closes the log.
test: deps venv build-debug
	.venv/bin/python scripts/peer/selftest.py
	.venv/bin/python scripts/relay/selftest.py
	$(BIN_DEBUG) vectors verify --dir vectors
	CI=$${CI:-1} swift test --skip-build --disable-swift-testing

vectors: build-debug
	$(BIN_DEBUG) vectors verify --dir vectors

bench: build
	$(BIN_RELEASE) bench

demo: build
	$(BIN_RELEASE) demo

# libFuzzer targets (Fuzz/Package.swift), each run for $(SECONDS) seconds.
fuzz: deps
	scripts/fuzz/run.sh $(SECONDS)

# The test suite under AddressSanitizer and LeakSanitizer.
asan: deps venv
	scripts/asan.sh

clean:
	rm -rf .build .venv
