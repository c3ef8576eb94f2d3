# Converge's build. `make serve` builds and serves the page; `make test` runs
# every check that CI runs (.ci/run is `make test` on a fresh machine).

GO ?= go
GOROOT := $(shell $(GO) env GOROOT)
WASM_EXEC_DIR := $(GOROOT)/lib/wasm

# The build outputs that package web embeds (see web/embed.go).
DIST := web/dist
WASM := $(DIST)/converge.wasm
BIN := bin/converge
# -buildvcs=false: the outputs depend on the sources only, not on git's state.
# -modfile: go.yaml.in/yaml/v3 without regexp (tools/wasmmod). -gcflags: no
# inlining in the packages that do not run per tick or per frame, which makes
# the wasm about 7% smaller on the wire at no measurable cost in speed; the
# simulator's own packages keep it (inlining everything costs 2x in
# BenchmarkBrowserSimulate). docs/performance.md has the measurements. The
# page's native layer, the replay script, the lessons, Compare, the HPA and
# GitOps reconcilers (which sync every 15 s or on a commit), the metrics
# server, quota and the disruption controller (which act only on scenarios
# that have them) joined the list when the features of the third round would
# have taken the wasm over its size ceiling (web/size_test.go): 1,952,030
# bytes at brotli 11 before, 1,925,887 after. time and os joined it with
# the paced seek (1,932,956 before, 1,928,586 after; BenchmarkBrowserSimulate
# showed no cost).
WASM_MOD := bin/wasm/go.mod
WASM_NOINLINE := converge/wasm converge/core/session converge/core/export converge/core/lesson converge/core/library converge/core/humanize converge/core/compare converge/core/outcome converge/core/spell converge/core/imageref converge/core/controller/gitops converge/core/controller/podautoscaler converge/core/controller/disruption converge/core/quota converge/core/metrics converge/core/kubectl/... converge/core/scenario \
	converge/core/manifest converge/core/validation/... converge/core/view converge/core/persist converge/core/labels converge/core/api converge/core/controller/resourcequota converge/core/controller/nodelifecycle converge/core/controller/gc converge/core/version strconv go.yaml.in/yaml/v3 \
	encoding/json fmt compress/flate text/tabwriter net/url honnef.co/go/js/dom/v2 \
	time os
WASM_BUILDFLAGS := -trimpath -buildvcs=false -modfile=$(WASM_MOD) $(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)
# -buildid= : no Go build ID in the wasm. It hashes the build's inputs,
# paths included, so the same source built in another folder gave another
# wasm whose brotli size moved by up to 3 KB; the page never reads it.
WASMFLAGS := $(WASM_BUILDFLAGS) -ldflags='-s -w -buildid='
# Brotli quality of web/dist/converge.wasm.br, which `converge serve` sends to
# browsers that accept br and export-site exports (internal/precompress has
# the times: 6 takes under a second, 11 half a minute, 360 KB smaller). The
# best, once per distinct wasm: tools/wasmdist keeps each .br in
# BROTLI_CACHE by the wasm's hash. BROTLI_QUALITY=6 for quick builds.
BROTLI_QUALITY ?= 11
BROTLI_CACHE ?= bin/brotli
# Flags of tools/wasmdist and tools/wasmsize: -lines keeps the file and line
# numbers of the wasm's code, which it otherwise drops (Go's tracebacks in
# the browser's console then say "?:0"; docs/performance.md).
WASMDIST_FLAGS ?=
ADDR ?= 127.0.0.1:8080

# Extra flags for every go test run; .ci/run passes -count=1 so that CI never
# reports a cached result.
TESTFLAGS ?=
# Packages whose tests also run compiled to wasm, under Node.
WASM_TEST_PKGS ?= ./wasm/...
# How long `make fuzz` runs each fuzz target.
FUZZTIME ?= 10s

# staticcheck (2026.2.2; it must know the Go release in go.mod) and deadcode
# (golang.org/x/tools), pinned. `make tools` installs them with go install
# into bin/tools, under names that carry the versions, so that changing a pin
# installs the new one.
STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION := v0.53.0
TOOLS_BIN := $(CURDIR)/bin/tools
STATICCHECK := $(TOOLS_BIN)/staticcheck-$(STATICCHECK_VERSION)
DEADCODE := $(TOOLS_BIN)/deadcode-$(DEADCODE_VERSION)

.PHONY: all build npm serve test lint tools axe test-wasm test-browser screenshots bench fuzz size clean FORCE
all: build

## build: the wasm and its wasm_exec.js into web/dist, then bin/converge, which embeds them
build: $(BIN)

# go build decides itself whether anything changed (FORCE; its cache makes an
# unchanged build take a fraction of a second). tools/wasmdist drops what
# only tracebacks read (file and line numbers; WASMDIST_FLAGS=-lines keeps
# them), packs the linker's data segments and writes the wasm, NAME.gz and
# NAME.br only when the bytes changed (see its doc).
$(WASM): FORCE
	@mkdir -p $(DIST) bin
	@[ -f bin/converge.wasm.linked ] || echo "Compiling the simulator to WebAssembly: the first time this may take a few minutes."
	@$(GO) run ./tools/wasmmod bin/wasm
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o bin/converge.wasm.linked ./wasm
	$(GO) run ./tools/wasmdist -brotli $(BROTLI_QUALITY) -cache $(BROTLI_CACHE) $(WASMDIST_FLAGS) bin/converge.wasm.linked $@

# wasm_exec.js belongs to the compiler that built the wasm: copy it, never commit it.
$(DIST)/wasm_exec.js: $(WASM_EXEC_DIR)/wasm_exec.js
	@mkdir -p $(DIST)
	cp $< $@

$(BIN): $(WASM) $(DIST)/wasm_exec.js FORCE
	$(GO) build -trimpath -buildvcs=false -o $@ ./cmd/converge

## npm: the embed as the npm package converge-sim in bin/npm, packed by npm pack into bin/converge-sim-VERSION.tgz
npm: build
	rm -rf bin/npm
	$(BIN) export-npm bin/npm
	cd bin && npm pack ./npm

## serve: build, then serve the page on ADDR (default 127.0.0.1:8080)
serve: build
	$(BIN) serve --addr $(ADDR)

## tools: install the pinned staticcheck and deadcode into bin/tools (when missing)
tools: $(STATICCHECK) $(DEADCODE)

$(STATICCHECK):
	@mkdir -p $(TOOLS_BIN)/tmp-staticcheck
	GOBIN=$(TOOLS_BIN)/tmp-staticcheck $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv $(TOOLS_BIN)/tmp-staticcheck/staticcheck $@
	@rmdir $(TOOLS_BIN)/tmp-staticcheck

$(DEADCODE):
	@mkdir -p $(TOOLS_BIN)/tmp-deadcode
	GOBIN=$(TOOLS_BIN)/tmp-deadcode $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)
	mv $(TOOLS_BIN)/tmp-deadcode/deadcode $@
	@rmdir $(TOOLS_BIN)/tmp-deadcode

# axe-core, pinned in tools/axe/package-lock.json, for the accessibility
# browser test (cmd/converge/browser_a11y_test.go). `make axe` installs it
# with npm ci into tools/axe/node_modules (not committed).
AXE := tools/axe/node_modules/axe-core/axe.min.js

## axe: install the pinned axe-core into tools/axe (when it is missing or the lock changed)
axe: $(AXE)

$(AXE): tools/axe/package.json tools/axe/package-lock.json
	npm ci --prefix tools/axe --no-audit --no-fund
	@touch $@

# deadcode runs once, for js/wasm, on every main package of the module (the
# command line and the tools build for js too, and no file is native-only), so
# that what the page or the command line reaches is live; without -test, code
# that only tests reach counts as dead. Its findings, but for these, fail
# lint: the test-helper packages, core/k8scase (which tools/k8sdiff, another
# module, runs), api.MustQuantity (constants in tests and in core/k8scase)
# and export.Trace (the whole trace in one call, which the tests of several
# packages and tools/realcluster, another module, compare with; the page and
# the command line write it in slices).
DEADCODE_IGNORE := ^core/(simtest|k8scase)/|^internal/matchtest/|: unreachable func: (MustQuantity|Trace)$$

## lint: gofmt, go mod tidy, go vet, staticcheck (native and wasm) and deadcode
# gofmt skips bin/, the build's outputs: realcluster build copies kwok and
# the modules only kwok uses there (bin/realcluster/kwokpin), as they are.
lint: $(STATICCHECK) $(DEADCODE)
	@unformatted="$$(find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/testdata/*' -exec gofmt -l {} +)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: these files need gofmt -w:"; echo "$$unformatted"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...
	$(STATICCHECK) ./...
	GOOS=js GOARCH=wasm $(STATICCHECK) ./wasm/...
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(DEADCODE) ./... > bin/deadcode.txt
	@dead="$$(grep -Ev '$(DEADCODE_IGNORE)' bin/deadcode.txt)"; \
	if [ -n "$$dead" ]; then echo "deadcode: functions nothing but tests reaches: wire them in or delete them:"; echo "$$dead"; exit 1; fi

## test: lint, native tests, wasm tests under Node, browser tests
test: build lint
	$(GO) test $(TESTFLAGS) $$($(GO) list ./... | grep -v '/cmd/converge$$')
	$(MAKE) --no-print-directory test-wasm test-browser

## test-wasm: the wasm packages' tests, compiled to wasm and run under Node
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test $(TESTFLAGS) -exec="$(WASM_EXEC_DIR)/go_js_wasm_exec" $(WASM_TEST_PKGS)

## test-browser: the command line's tests, with the browser tests (needs make build), BROWSER_PARALLEL at a time
# BROWSER_TIMEOUT bounds the whole package (a few minutes on an idle 2-core
# machine, several times that on a busy one): a hung browser fails the run
# with the stacks instead of holding CI until its own limit. A hung page
# fails its own test sooner (pageTimeout, cmd/converge/browser_harness_test.go).
# BROWSER_PARALLEL is go test's -parallel: how many tests run side by side,
# each in its own tab of the one chromium.
BROWSER_TIMEOUT ?= 30m
BROWSER_PARALLEL ?= 3
test-browser: $(AXE)
	$(GO) test $(TESTFLAGS) -parallel $(BROWSER_PARALLEL) -timeout $(BROWSER_TIMEOUT) ./cmd/converge

## screenshots: the browser tests that only take screenshots, for a person to look at, into SCREENSHOTS (default bin/screenshots); not part of make test
SCREENSHOTS ?= $(CURDIR)/bin/screenshots
screenshots: $(AXE)
	@mkdir -p $(SCREENSHOTS)
	CONVERGE_SCREENSHOTS=$(SCREENSHOTS) $(GO) test $(TESTFLAGS) -timeout $(BROWSER_TIMEOUT) -run 'Screenshots' ./cmd/converge

## size: what the wasm is made of, per package, raw, gzip and brotli -q 11, and which size optimisations applied (tools/wasmsize); fails over SIZE_BUDGET
# SIZE_BUDGET is the wasm's size ceiling at brotli 11, web.WasmCeiling, which
# `make test` checks (docs/performance.md, The size ceiling).
SIZE_BUDGET ?= 1932800
size:
	@mkdir -p bin
	@$(GO) run ./tools/wasmmod bin/wasm
	GOOS=js GOARCH=wasm $(GO) build $(WASM_BUILDFLAGS) -o bin/converge.wasm.named ./wasm
	$(GO) run ./tools/wasmsize -modfile $(WASM_MOD) -budget $(SIZE_BUDGET) $(WASMDIST_FLAGS) bin/converge.wasm.named

## k8sdiff: Kubernetes' own Deployment, ReplicaSet and HPA controllers, and the libraries Converge ports (labels, quantities, intstr, the YAML printer), against Converge's on generated cases (tools/k8sdiff, a module of its own; see docs/fidelity.md)
.PHONY: k8sdiff
k8sdiff:
	cd tools/k8sdiff && $(GO) test -count=1 -timeout 30m -v -run '^(TestK8sDiff|TestHPADiff|TestLib.*|TestDiff.*)$$' .

## realcluster: replay scenarios on a real Kubernetes v1.35.4 control plane with kwok, built from Go modules (tools/realcluster, a module of its own), and compare each with Converge's trace; prints a table (docs/fidelity.md)
# REALCLUSTER_SCENARIOS: the scenarios (default: the library); `make
# realcluster-ci` runs REALCLUSTER_CI, the set .ci/run runs. The build (about
# 1,300 CPU-seconds cold, a relink warm) runs niced, at REALCLUSTER_BUILD_P
# packages at once (empty: go's default, one per core); the binaries are kept
# in the user's cache directory by a key of what they are built from
# (realcluster build -cache), so a machine that keeps its caches builds
# nothing. REALCLUSTER_DEADLINE (seconds since 1970, .ci/run's budget): the
# build and the replays stop then, and the scenarios that did not run are
# listed.
REALCLUSTER_BIN ?= $(CURDIR)/bin/realcluster
REALCLUSTER_OUT ?= $(CURDIR)/bin/realcluster-out
REALCLUSTER_SCENARIOS ?= $(sort $(wildcard scenarios/*.yaml))
REALCLUSTER_PARALLEL ?= 3
REALCLUSTER_BUILD_P ?=
REALCLUSTER_DEADLINE ?=
REALCLUSTER_FLAGS ?=
# REALCLUSTER_CI: rolling updates, Recreate, rollback, a stuck rollout,
# selectors, scaling and a watched rollout (the HPA cannot be replayed: kwok
# serves no metrics). Their expected verdicts are in
# tools/realcluster/expected.txt: CI fails when one expected to agree does
# not, or a replay fails for an error; a cluster's timing alone cannot fail
# it where the expected verdict is "differs". They all replay at once
# (REALCLUSTER_CI_PARALLEL): the replays wait on the clock, so the set takes
# about its longest scenario (180 s) and the clusters' starts; the module's
# go test runs beside them.
REALCLUSTER_CI := basic-loop proportional-scaling recreate rollback-revisions rolling-update rollout-status-wait selector-mismatch stuck-never-ready
REALCLUSTER_CI_PARALLEL ?= 8
realcluster_deadline = $(if $(REALCLUSTER_DEADLINE),-deadline $(REALCLUSTER_DEADLINE))
.PHONY: realcluster realcluster-ci realcluster-build realcluster-replay realcluster-ci-set
realcluster-ci-set:
	@echo $(REALCLUSTER_CI)
realcluster-build:
	@mkdir -p $(REALCLUSTER_BIN)
	$(GO) build -trimpath -buildvcs=false -o $(REALCLUSTER_BIN)/converge ./cmd/converge
	cd tools/realcluster && GOFLAGS='$(if $(REALCLUSTER_BUILD_P),-p=$(REALCLUSTER_BUILD_P) )-buildvcs=false' nice -n 10 $(GO) run -trimpath ./cmd/realcluster build -bin $(REALCLUSTER_BIN) $(realcluster_deadline)
realcluster: realcluster-build
	$(MAKE) realcluster-replay
realcluster-replay:
	cd tools/realcluster && $(GO) run -trimpath ./cmd/realcluster run -bin $(REALCLUSTER_BIN) -converge $(REALCLUSTER_BIN)/converge \
		-out $(REALCLUSTER_OUT) -parallel $(REALCLUSTER_PARALLEL) -json $(REALCLUSTER_OUT)/results.json -markdown $(REALCLUSTER_OUT)/table.md $(realcluster_deadline) $(REALCLUSTER_FLAGS) $(abspath $(REALCLUSTER_SCENARIOS))
realcluster-ci:
	@began=$$(date +%s); $(MAKE) realcluster-build || { echo "realcluster: NOT RUN, the build did not finish: $(REALCLUSTER_CI)"; exit 1; }; \
	echo "realcluster: build $$(( $$(date +%s) - began ))s"
	@mkdir -p $(REALCLUSTER_OUT); began=$$(date +%s); \
	( cd tools/realcluster && REALCLUSTER_BIN=$(REALCLUSTER_BIN) $(GO) test -trimpath -count=1 . > $(REALCLUSTER_OUT)/go-test.txt 2>&1; \
	  echo $$? > $(REALCLUSTER_OUT)/go-test.rc; echo "realcluster: go test (beside the replays) $$(( $$(date +%s) - began ))s" >> $(REALCLUSTER_OUT)/go-test.txt ) & \
	$(MAKE) realcluster-replay REALCLUSTER_PARALLEL=$(REALCLUSTER_CI_PARALLEL) REALCLUSTER_SCENARIOS="$(foreach s,$(REALCLUSTER_CI),scenarios/$(s).yaml)" REALCLUSTER_FLAGS="-expect $(CURDIR)/tools/realcluster/expected.txt"; \
	rc=$$?; echo "realcluster: replays $$(( $$(date +%s) - began ))s"; wait; cat $(REALCLUSTER_OUT)/go-test.txt; \
	[ "$$rc" -eq 0 ] && [ "$$(cat $(REALCLUSTER_OUT)/go-test.rc)" = 0 ]

## bench: every benchmark, with allocations
bench:
	@pkgs="$$(grep -rl --include='*_test.go' '^func Benchmark' . | xargs -r -n1 dirname | sort -u)"; \
	if [ -z "$$pkgs" ]; then echo "no benchmarks"; exit 0; fi; \
	$(GO) test -run='^$$' -bench=. -benchmem $$pkgs

## fuzz: each fuzz target for FUZZTIME (default 10s); go test -fuzz takes one target per run
fuzz:
	@found=0; \
	for f in $$(grep -rl --include='*_test.go' '^func Fuzz' .); do \
	  dir=$$(dirname $$f); \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    found=1; echo "== $$dir $$target"; \
	    $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) $$dir || exit 1; \
	  done; \
	done; \
	if [ $$found = 0 ]; then echo "no fuzz targets"; fi

## clean: remove the build outputs (web/dist keeps its .gitkeep)
clean:
	rm -rf bin
	rm -f $(WASM) $(WASM).tmp $(WASM).gz $(WASM).gz.tmp $(WASM).br $(WASM).br.tmp $(DIST)/wasm_exec.js

FORCE:
