# InviteKit: `make demo` and `make test` work on a fresh Debian machine (run as root).
SHELL := /bin/bash
DEB_PACKAGES := libsecp256k1-dev libsodium-dev libssl-dev zlib1g-dev libqrencode-dev libpng-dev zbar-tools libsqlite3-dev python3 python3-venv
BIN_DEBUG := .build/debug/invitekit
BIN_RELEASE := .build/release/invitekit

.PHONY: all deps venv mdk build build-debug test interop large-groups demo vectors conformance bench fuzz asan docs clean
SECONDS ?= 30
# Extra flags for the debug build; CI (.ci/run) passes -Xswiftc -warnings-as-errors, which
# SwiftPM's native build system applies to this package's targets only (remote dependencies
# are built with -suppress-warnings instead).
SWIFT_BUILD_FLAGS ?=

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

# MDK (the Rust Marmot implementation) in a Debian trixie chroot, for the interop tests.
mdk:
	@scripts/mdk/setup.sh

# The Swift runtime and Foundation linked in: a command starts in ~15 ms instead of ~23
# (`invitekit --version`), which is most of what a short command such as `group send` costs.
build: deps
	swift build -c release --static-swift-stdlib --product invitekit

build-debug: deps
	swift build --build-tests $(SWIFT_BUILD_FLAGS)

# Citations and the Python fixtures check themselves first; swift test runs last so its summary closes the log.
test: deps venv mdk build-debug
	python3 scripts/check-citations.py
	python3 scripts/check-app-imports.py
	.venv/bin/python scripts/peer/selftest.py
	.venv/bin/python scripts/relay/selftest.py
	.venv/bin/python scripts/marmot/check_current.py
	$(BIN_DEBUG) vectors verify --dir vectors
	CI=$${CI:-1} INVITEKIT_REQUIRE_MDK=1 swift test --skip-build --disable-swift-testing

# Only the MDK interop tests (Tests/InviteKitInteropTests); a missing chroot is built first.
interop: deps mdk build-debug
	INVITEKIT_REQUIRE_MDK=1 swift test --skip-build --disable-swift-testing --filter InviteKitInteropTests

# A 1,000-member group built by the node over the real relay (PROTOCOL §5.11); `make test` runs
# the same test with 300 members.
large-groups: deps venv build-debug
	CI=$${CI:-1} INVITEKIT_LARGE_GROUP_MEMBERS=1000 swift test --skip-build --disable-swift-testing --filter NodeLargeGroupRealRelayTests

vectors: build-debug
	$(BIN_DEBUG) vectors verify --dir vectors

# MDK 0.9.14's portable conformance scenarios, incident replays and selector cases, one line each
# (PROTOCOL §5.13.1); `make test` runs the same set inside `vectors verify`.
conformance: build-debug
	$(BIN_DEBUG) conformance run $$(ls vectors/marmot/conformance/*.v1.json | grep -v manifest) vectors/marmot/conformance/incidents/*.json \
	  vectors/marmot/current/mdk-0.9.14/current-profile-required-set.v1.json vectors/marmot/conformance/policy_cases.json

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

# The DocC catalog of the InviteKit module (Sources/InviteKit/InviteKit.docc), built by
# swift-docc-plugin from the InviteKit target's symbol graphs only (so a fresh clone, whose test
# modules were never built, works) with the toolchain's docc; any warning (a missing symbol)
# fails. SWIFT_BUILD_FLAGS as for build-debug, so after `make test` nothing is rebuilt.
docs: deps
	rm -rf .build/docs && mkdir -p .build/docs
	set -o pipefail; swift package $(SWIFT_BUILD_FLAGS) --allow-writing-to-directory .build/docs \
	  generate-documentation --target InviteKit --output-path .build/docs/InviteKit.doccarchive \
	  --fallback-display-name InviteKit --fallback-bundle-identifier org.invitekit.InviteKit 2>&1 | tee .build/docs.log
	@! grep -q "warning:" .build/docs.log

clean:
	rm -rf .build .venv
