# Entry points. The logic lives in cargo and in the scripts under synth/ and tb/.
CARGO   ?= cargo
RELEASE := --release
OUT     := out
# cargo's target directory: CARGO_TARGET_DIR when set (as cargo takes it), else target/
BIN     := $(abspath $(or $(CARGO_TARGET_DIR),target))

.PHONY: setup run trace test cargo-test threads-fuzz verilog verilog-pipelined synth fmax-seeds asic formal cocotb fusesoc peakrdl vcd screenshots bench faults soak reproduce reproduce-ib study same-results lane-vs estimate-accuracy sweep-estimate-accuracy booksim peers docs fmt lint clean

## setup: install yosys, verilator, iverilog, nextpnr-ice40, icestorm, z3, GNU parallel, OpenSTA,
##        the OSU 0.18 um cells and ccache (apt, .ci/install-deps; uses sudo when not root), and
##        into .venv/ (pip, synth/setup-venv.sh) YoWASP's Yosys and nextpnr-ecp5 for make synth's
##        ECP5, Yices for make formal, cocotb, FuseSoC and PeakRDL
setup:
	.ci/install-deps
	bash synth/setup-venv.sh

## run: the main job: the default 120-node GPCNeT-like scenario, PFT off vs the paper's
##      configuration (and the other configs it lists), then the reading that reproduces the
##      paper's F_C 2.58 (scenarios/paper-64b.toml); prints one table each with F_C and CIF
run:
	$(CARGO) build $(RELEASE) --locked --bin pftsim
	@echo "== 1/2 The plain reading (scenarios/default.toml): the paper's registers as printed,"
	@echo "==     64-byte credits, 4 KiB packets, the block's 32-bit random number and 64/48 AT windows"
	$(BIN)/release/pftsim compare scenarios/default.toml --out $(OUT)/default
	@echo "== 2/2 The reading that reproduces the paper's F_C 2.58 (scenarios/paper-64b.toml,"
	@echo "==     docs/reproduction.md): 64-byte packets, a 19-bit random number, the AT escape"
	@echo "==     window at 65535/49152 core cycles, packet gating at the 700 MHz chip's clock"
	$(BIN)/release/pftsim compare scenarios/paper-64b.toml --out $(OUT)/paper-64b

## trace: the block alone, paper configuration, against a credit link that drains 0.6 flit/cycle
trace:
	$(CARGO) run $(RELEASE) --bin pft-trace -- --config tb/examples/paper-at-ri.toml \
	    --link-latency 50 --drain 0.6 --cycles 1000000 --summary $(OUT)/trace/summary.json
	@cat $(OUT)/trace/summary.json; echo

## test: everything CI runs (Verilog checks, formal proofs, the cocotb testbench, the FuseSoC
##       targets, the SystemRDL through PeakRDL, unit, equivalence, Verilog-replay, property,
##       bad-input and fuzz tests, then `threads-fuzz`)
##       The cargo tests and the four tool steps run two at a time (each tool step is mostly
##       one process; every log is printed whole as its step ends). Every step runs even
##       when another fails (`-k`, then threads-fuzz), and then `make test` fails.
# (The sub-make's status goes through a file, one per make process ($$PPID: both lines'
# shells are make's children): a recipe line that holds `$(MAKE)` runs even under `make
# -n`, so the fuzz has a line of its own, which `-n` only prints, and `-n` writes no file.)
TEST_STATUS = $(BIN)/make-test.$$PPID.status
NOEXEC := $(findstring n,$(firstword -$(MAKEFLAGS)))
test: verilog verilog-pipelined
	st=0; $(MAKE) --no-print-directory -k -j2 --output-sync=target -o verilog \
	    -o verilog-pipelined cargo-test formal cocotb fusesoc peakrdl || st=$$?; \
	$(if $(NOEXEC),:,mkdir -p $(BIN) && echo $$st >$(TEST_STATUS))
	st=0; $(FUZZ_THREADS) --netbench $(BIN)/release/net-bench || st=$$?; \
	s=$$(cat $(TEST_STATUS)); rm -f $(TEST_STATUS); [ "$$s" = 0 ] && exit $$st; exit $$s

# The Rust tests, built and run beside the EDA checks above (`make test` overlaps them: the
# single-threaded tools fill the cores the build's serial stretches leave idle). The tests of
# `cargo test --release --workspace`, run two test binaries at a time (tb/run_tests.sh says
# why that is safe); every binary runs even when one fails, and a table of their times ends it.
cargo-test:
	CARGO="$(CARGO)" bash tb/run_tests.sh

## threads-fuzz: 300 random net-bench networks (seed 1) at 1, 2 and 3 threads and with
##       --check: the same results, exit codes and errors, or a failure
##       (tb/examples/threads_fuzz.py, docs/verification.md). `make test` runs it last, about
##       10 s, on the net-bench its Rust tests built (a build of its own would redo ~1 min).
FUZZ_THREADS := python3 tb/examples/threads_fuzz.py --count 300 --seed 1
threads-fuzz:
	$(FUZZ_THREADS)

# The Python tools (cocotb, FuseSoC, YoWASP, systemrdl-compiler and PeakRDL), made by
# synth/setup-venv.sh when missing or older than it; $(VENV)/bin/fusesoc stands for all of them.
VENV := .venv
$(VENV)/bin/fusesoc: synth/setup-venv.sh
	bash synth/setup-venv.sh $(VENV)

## cocotb: the cocotb testbenches of the exported Verilog under Icarus (tb/cocotb/): pft_injector
##         (CSR bus, FT-FI cycle-exact against the spec, RI rate statistically) and pft_axis
##         with cocotbext-axi (AXI4-Lite master, AXI-Stream source and sink with random
##         back-pressure, credit link, FT-FI cycle-exact, RI statistically, pause, reset in the
##         middle of a frame), on the 64-bit and the 512-bit export (about two minutes).
##         Its broken copies: tb/cocotb/mutants.py
cocotb: verilog $(VENV)/bin/fusesoc
	$(VENV)/bin/python tb/cocotb/run.py --build-dir $(OUT)/cocotb

## fusesoc: the FuseSoC cores synth/pft_injector.core, synth/pft_injector_pipelined.core and
##          synth/pft_axis.core: lint (Verilator), sim (Icarus), synth_ice40 (icestorm),
##          synth_ecp5 (trellis flow with YoWASP's nextpnr-ecp5)
fusesoc: verilog verilog-pipelined $(VENV)/bin/fusesoc
	for c in pft_injector pft_injector_pipelined pft_axis; do for t in lint sim synth_ice40 synth_ecp5; do \
	    PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/fusesoc --cores-root synth run \
	        --build-root $(OUT)/fusesoc/$$c/$$t --target $$t pft:nic:$$c || exit 1; \
	done; done

## peakrdl: the register map's SystemRDL (hdl/generated/pft_regs.rdl) compiled by
##          systemrdl-compiler, PeakRDL's C header and HTML exporters run on it ($(OUT)/peakrdl/),
##          and the C compiler's check that PeakRDL's header agrees with hdl/generated/pft_regs.h;
##          pft_axis's AXI4-Lite map (top pft_axis_csr) as IP-XACT ($(OUT)/peakrdl/pft_axis.xml,
##          PeakRDL-ipxact), checked against hdl/generated/pft_regs.py (synth/peakrdl.py)
peakrdl: $(VENV)/bin/fusesoc
	$(VENV)/bin/python synth/peakrdl.py --out $(OUT)/peakrdl

## verilog: export synth/out/pft_injector.v and check it with yosys, verilator and iverilog;
##          export synth/out/pft_axis.v (PFT as AXI-Stream + AXI4-Lite IP, 64-bit data) and
##          synth/out/pft_axis_512.v (512-bit data) and lint each alone (the names pft-verilog
##          gives them without OUT.v, docs/axis.md; its test checks these lines)
verilog: synth/out/pft_regs.vh
	$(CARGO) run $(RELEASE) --locked --bin pft-verilog -- synth/out/pft_injector.v
	bash synth/check_verilog.sh synth/out/pft_injector.v
	$(BIN)/release/pft-verilog --design pft_axis synth/out/pft_axis.v
	verilator --lint-only --top-module pft_axis synth/out/pft_axis.v
	@echo "pft_axis: verilator --lint-only OK (synth/out/pft_axis.v, alone)"
	$(BIN)/release/pft-verilog --design pft_axis --data-width 512 synth/out/pft_axis_512.v
	verilator --lint-only --top-module pft_axis synth/out/pft_axis_512.v
	@echo "pft_axis: verilator --lint-only OK (synth/out/pft_axis_512.v, 512 bits, alone)"

# The register map's Verilog defines beside the exported Verilog (the FuseSoC testbench
# includes them; hdl/generated/ is kept current by `make docs` and a test).
synth/out/pft_regs.vh: hdl/generated/pft_regs.vh
	mkdir -p synth/out && cp $< $@

## verilog-pipelined: export synth/out/pft_injector_pipelined.v (top module pft_injector_pipelined:
##                    the pipelined build, docs/behaviour.md) and check it like make verilog
verilog-pipelined: synth/out/pft_regs.vh
	$(CARGO) run $(RELEASE) --locked --bin pft-verilog -- --pipelined synth/out/pft_injector_pipelined.v
	PFT_TOP=pft_injector_pipelined bash synth/check_verilog.sh synth/out/pft_injector_pipelined.v

## synth: Yosys generic and iCE40 synthesis, nextpnr-ice40 place and route (and ECP5, Gowin with
##        .venv/) of the default build (synth/reports/), the pipelined build at 100 MHz
##        (synth/reports/pipelined/) and the hand-written reference (synth/reports/reference/),
##        then one table of the three: synth/reports/compare.md; then pft_axis beside the bare
##        block (iCE40 HX8K 64-bit, ECP5 64 and 512-bit data; synth/axis/synth.sh, placed in
##        synth/wrap/pft_axis_wrap.v; synth/reports/axis/summary.md)
synth: verilog verilog-pipelined
	bash synth/run.sh
	PFT_TOP=pft_injector_pipelined ICE40_FREQ_MHZ=100 SYNTH_WORK=synth/out/work-pipelined \
	    SYNTH_REPORTS=synth/reports/pipelined bash synth/run.sh synth/out/pft_injector_pipelined.v
	PFT_TOP=pft_injector_ref SYNTH_WORK=synth/out/work-reference \
	    SYNTH_REPORTS=synth/reports/reference bash synth/run.sh synth/reference/pft_injector_ref.v
	python3 synth/tools/compare.py default=synth/reports pipelined=synth/reports/pipelined \
	    reference=synth/reports/reference --out synth/reports
	bash synth/axis/synth.sh

## fmax-seeds: Fmax of the default build (32 MHz) and the pipelined build (100 MHz) on the HX8K
##             over nextpnr placer seeds 1..8 (synth/seeds.sh; synth/reports/seeds.csv)
fmax-seeds: verilog verilog-pipelined
	bash synth/seeds.sh

## synth-FAMILY: another family of the design registry (hdl/src/lib.rs; the families: `pft-verilog
##               --help`) with PFT's flow: export every top of the family into synth/out/
##               (pft-verilog --family), then synth/flow.sh FAMILY: the Verilog checks, Yosys
##               generic and iCE40, nextpnr-ice40, ECP5 with .venv, cells per block and the
##               OSU 0.18 um estimate of its main design, its variants' cells, its N-flow
##               blocks' cells with the line through them (cost per flow), and its extra script;
##               reports in synth/reports/FAMILY/. synth-selftuned: the self-tuned throttle's
##               node (seed 003) and the side-band node; synth-mvcm: MVCM's per-flow source
##               state (seed 004; 1, 4, 16, 64 flows); synth-ibcc: IB CC's per-flow state with
##               the port's CCT and CCTI timer (seed 002, Table I; also with a random CCT);
##               synth-dcqcn: DCQCN's reaction point per flow (1, 4, 16, 64 flows).
##               `pft` and `axis` are refused here (exit 2): `make synth` synthesizes them.
##               (A pattern rule: the family names are not .PHONY, or make would skip it.)
synth-%:
	bash synth/flow.sh --check $*
	$(CARGO) run $(RELEASE) --locked --bin pft-verilog -- --family $* --out-dir synth/out
	bash synth/flow.sh $*

## asic: ASIC-style estimate of the default and the pipelined build: Yosys onto the OSU 0.18 um
##       cells of Debian's qflow-tech-osu018, OpenSTA for the worst register-to-register path
##       (synth/asic.sh; synth/reports/asic_*, synth/reports/pipelined/asic_*; docs/hardware.md)
asic: verilog verilog-pipelined
	bash synth/asic.sh
	PFT_TOP=pft_injector_pipelined bash synth/asic.sh synth/out/pft_injector_pipelined.v

## formal: properties of the exported Verilog, default and pipelined build, Yosys +
##         yosys-smtbmc with Yices 2 (.venv's yices-smt2; SOLVER=z3 for Debian's z3, about 4x
##         the CPU): BMC 30 cycles, k-induction, covers, broken copies that must fail
##         (docs/formal.md); pft_axis's AXI-Stream and AXI4-Lite properties, BMC 20 cycles, and
##         its broken copies (synth/formal/axis/)
FORMAL_ENV = PATH="$(CURDIR)/$(VENV)/bin:$$PATH" SOLVER="$${SOLVER:-yices}"
formal: verilog verilog-pipelined $(VENV)/bin/fusesoc
	$(FORMAL_ENV) JOBS=2 bash synth/formal/run.sh
	$(FORMAL_ENV) JOBS=2 bash synth/formal/run.sh synth/out/pft_injector_pipelined.v
	$(FORMAL_ENV) bash synth/formal/axis/run.sh synth/out/pft_axis.v

## vcd: directed congestion episodes (FT-FI and AT-RI) as VCD for GTKWave (tb/pft.gtkw)
vcd:
	bash tb/examples/episodes.sh $(OUT)/vcd

## screenshots: PNGs of the episodes for docs/waveforms.md (needs gtkwave xvfb x11-apps imagemagick)
screenshots: vcd
	bash tb/examples/screenshot.sh $(OUT)/vcd/episode-ft-fi.vcd docs/img/episode-ft-fi.png
	bash tb/examples/screenshot.sh $(OUT)/vcd/episode-at-ri.vcd docs/img/episode-at-ri.png

## bench: cycles/s of the reference model, the rust-hdl RTL and Verilator, side by side;
##        network node-cycles/s and peak RSS (128-node tree at load 0.5, 648 nodes, the rtl
##        and verilator engines, IB CC off and on, the 1,024-NIC 4-ary 5-fly for 10^6 cycles with
##        one lane and with 4 lanes, the 16,512-NIC dragonfly for 10^5 cycles with none and
##        pft), the wall time of the IB silent-forest compare, and one run on 1..nproc threads
##        (tb/examples/threads.sh: ib648, the 16-ary 2-cube with lanes, the 16,512-NIC dragonfly)
##        and the per-cycle cost of the threads' barrier (threads.sh's barrier and ib648idle,
##        beside a C ping-pong between the two cores when cc is found)
bench: verilog
	$(CARGO) run $(RELEASE) --bin pft-bench -- --dir $(OUT)/bench
	$(CARGO) build --profile fast -q --bin net-bench
	$(BIN)/fast/net-bench --topo ft128 --load 0.5 --cycles 200000
	$(BIN)/fast/net-bench --topo ib648 --load 0.5 --cycles 50000
	$(BIN)/fast/net-bench --topo ft128 --load 0.5 --cycles 2000 --engine rtl
	$(BIN)/fast/net-bench --topo ft128 --load 0.5 --cycles 200000 --engine verilator
	$(BIN)/fast/net-bench --topo ft128 --load 0.5 --cycles 200000 --voq --cc none
	$(BIN)/fast/net-bench --topo ft128 --load 0.5 --cycles 200000 --voq --cc ibcc
	$(BIN)/fast/net-bench --topo fly:4,5 --cc none --load 0.5 --cycles 1000000
	$(BIN)/fast/net-bench --topo fly:4,5 --cc none --load 0.3 --cycles 1000000 --vcs 4 --packet-flits 16
	$(BIN)/fast/net-bench --topo dragonfly:8,16,8 --vcs 3 --routing ugal --lane-reuse tail \
	    --vc-buf 64 --load 0.3 --cycles 100000 --cc none
	$(BIN)/fast/net-bench --topo dragonfly:8,16,8 --vcs 3 --routing ugal --lane-reuse tail \
	    --vc-buf 64 --load 0.3 --cycles 100000 --cc pft
	$(CARGO) run $(RELEASE) -q --bin pftsim -- compare scenarios/ib-silent-forest.toml \
	    --out $(OUT)/bench/ib-silent-forest --quiet | tail -n 1
	NETBENCH=$(BIN)/fast/net-bench bash tb/examples/threads.sh $(OUT)/bench/threads-$$(date +%Y%m%d-%H%M%S)
	NETBENCH=$(BIN)/fast/net-bench NETS="barrier ib648idle" bash tb/examples/threads.sh $(OUT)/bench/barrier-$$(date +%Y%m%d-%H%M%S)

## faults: the fault study: scenarios/faults.toml under each run-time fault, PFT off / paper /
##         FT-FI, checker on (table in docs/faults.md; about 5 minutes)
faults:
	$(CARGO) run $(RELEASE) --locked -p pft-sim --example fault_study -- scenarios/faults.toml --out $(OUT)/faults

## soak: 1e8 cycles of one block (model) and 1e7 cycles of the 648-node network with every
##       fault on, invariants and memory checked (docs/soak.md; 6-16 minutes; not in CI)
soak:
	bash tb/examples/soak.sh $(OUT)/soak

## reproduce: the PFT paper's evaluation (docs/reproduction.md): Fig. 1(a)(b) measured from the
##            RTL beside eq. (1); Figs 3-5, the readings table and the F_C map from
##            scenarios/paper.toml (sweeps of 5 seeds; about 2 hours on 2 cores; not in CI)
reproduce:
	$(CARGO) build $(RELEASE) --locked --bin pftsim -p pft-sim
	bash tb/fresh_dir.sh $(OUT)/reproduce/fig1
	$(CARGO) run $(RELEASE) --locked -p pft-tb --example fig1 -- --out $(OUT)/reproduce/fig1
	$(BIN)/release/pftsim sweep scenarios/paper.toml --grid scenarios/grids/paper-fig5.toml \
	    --out $(OUT)/reproduce/fig5 --quiet
	$(BIN)/release/pftsim sweep scenarios/paper.toml --grid scenarios/grids/paper-readings.toml \
	    --out $(OUT)/reproduce/readings --quiet --yes
	$(BIN)/release/pftsim sweep scenarios/paper.toml --grid scenarios/grids/paper-map.toml \
	    --out $(OUT)/reproduce/map --quiet --yes
	@echo "plots and tables in $(OUT)/reproduce/ (docs/reproduction.md reads them)"

## reproduce-ib: the IB CC study (seed 002) in our network: Table II (silent forest with and
##               without hot spots, CC off and on), the windy forest at 25/50/75/100 % B and
##               the moving forest at 10/2/1 ms lifetimes (docs/results.md; about an hour on
##               2 cores, measured in parts on a shared machine; not in CI)
reproduce-ib:
	for d in ib-windy-forest ib-windy-forest-b ib-moving-forest; do \
	    bash tb/fresh_dir.sh $(OUT)/$$d || exit 1; done
	$(CARGO) run $(RELEASE) --locked --bin pftsim -- compare scenarios/ib-silent-forest.toml \
	    --out $(OUT)/ib-silent-forest --quiet
	$(CARGO) run $(RELEASE) --locked --bin pftsim -- compare scenarios/ib-silent-forest-nohot.toml \
	    --out $(OUT)/ib-silent-forest-nohot --quiet
	$(CARGO) run $(RELEASE) --locked -p pft-sim --example windy_forest -- \
	    scenarios/ib-windy-forest.toml --out $(OUT)/ib-windy-forest
	$(CARGO) run $(RELEASE) --locked -p pft-sim --example windy_forest -- \
	    scenarios/ib-windy-forest.toml --out $(OUT)/ib-windy-forest-b --b 50,75,100 --p 0,30,60,90,100
	$(CARGO) run $(RELEASE) --locked -p pft-sim --example moving_forest -- \
	    scenarios/ib-moving-forest.toml --out $(OUT)/ib-moving-forest

## booksim: BookSim 2 (built from booksim/booksim2 @28f43299 into target/booksim/; needs g++,
##          bison, flex; two patched copies beside it) and the lane router: latency-load
##          curves on an 8-ary 2-cube torus (DOR 2 and 4 lanes, adaptive 4 lanes) and a 4-ary
##          3-fly (4 lanes) into $(OUT)/booksim/ (CSV, two SVGs); the single-switch
##          cross-check (docs/network.md §9; about 20 minutes; not in CI)
booksim:
	@mkdir -p $(OUT)/booksim
	bash tb/booksim/run.sh
	bash tb/booksim/curves.sh $(OUT)/booksim/curves-$$(date +%Y%m%d-%H%M%S).csv
	cargo run --release -q -p pft-tb --example booksim_plot -- $$(ls -t $(OUT)/booksim/curves-*.csv | head -1) $(OUT)/booksim/plots-$$(date +%Y%m%d-%H%M%S)

## peers: net-bench, BookSim 2 and CAMINOS (cargo install caminos into target/peers/) side
##        by side on a 16-ary 2-cube, a 4-ary 4-tree and a 1,056-node dragonfly, 3 alternating
##        rounds, into $(OUT)/peers-<date>/ (docs/performance.md, "Peers side by side";
##        about 10 minutes of CPU; not in CI)
peers:
	@mkdir -p $(OUT)
	bash tb/peers/speed.sh $(OUT)/peers-$$(date +%Y%m%d-%H%M%S)

## study: every scheme on every fabric of scenarios/study/ (fat tree, torus, butterfly,
##        dragonfly; 8 victim motifs beside an incast aggressor, 3 seeds), one `pftsim sweep`
##        per fabric, into $(OUT)/study-<date>/ with study.csv, study_<fabric>.svg and the
##        tables of docs/results.md ("The study"); EMIT=parallel or EMIT=slurm writes the
##        sweeps for a cluster instead (tb/study/run.sh). Not in CI
study:
	@mkdir -p $(OUT)
	bash tb/study/run.sh $(OUT)/study-$$(date +%Y%m%d-%H%M%S)

## same-results: every shipped scenario at git revision REV and now, compared file by file
##               (proves a refactor kept results bit-identical; 1-2 hours: measured 2026-11-29,
##               3,320 + 3,542 s of compare on a shared 2-core machine; not in CI). REV's default:
##               c9563ac, the base of the last full comparison (858 files, 0 differences,
##               recorded in commit fcf1afa)
REV ?= c9563ac
same-results:
	bash tb/examples/same_results.sh $(REV) $(OUT)/same-results-$(REV)

## lane-vs: the lane router on the 16-ary 2-cube against the build at LANE_REV (default
##          d5c02e4, issue 44's "today's"), at 0.16 with the peers' latencies and saturated,
##          seven rounds alternating, CPU time and (with INSTR=1) instructions and
##          cachegrind's simulated branch mispredicts
##          (tb/examples/lane_vs.sh; docs/performance.md, "Ready lanes without a scan"; the
##          builds, then about a minute of runs, about 5 more a build with INSTR=1; not in CI)
LANE_REV ?= d5c02e4
lane-vs:
	@mkdir -p $(OUT)
	bash tb/examples/lane_vs.sh $(OUT)/lane-vs-$$(date +%Y%m%d-%H%M%S) $(LANE_REV)

## estimate-accuracy: `pftsim check`'s time estimate against the wall time `pftsim compare` then
##                    takes, on every shipped scenario and the paper's readings at 64-byte MTU,
##                    into $(OUT)/estimate-accuracy-<time>/estimates.csv (docs/scenarios.md,
##                    "How close the estimate is"; about 15 minutes on an idle machine; not in CI)
estimate-accuracy:
	cargo build --release --locked -p pft-sim --bin pftsim
	bash tb/examples/estimate_accuracy.sh $(OUT)/estimate-accuracy-$$(date +%Y%m%d-%H%M%S)

## sweep-estimate-accuracy: `pftsim sweep`'s estimate (the whole sweep and its longest run)
##                    against the sweep's wall time and its longest run's, on the shipped grids
##                    but the F_C map, into $(OUT)/sweep-estimate-accuracy-<time>/sweep-estimates.csv
##                    (docs/sweeps.md, "How close the estimate is"; about 21 minutes on 2 cores
##                    of an idle machine; not in CI)
sweep-estimate-accuracy:
	cargo build --release --locked -p pft-sim --bin pftsim
	bash tb/examples/sweep_estimate_accuracy.sh $(OUT)/sweep-estimate-accuracy-$$(date +%Y%m%d-%H%M%S)

## docs: regenerate docs/registers.md and hdl/generated/ (SystemRDL, SystemVerilog package,
##       Verilog defines, C header, Python module) from hdl/src/regs.rs, and the design
##       registry's JSON hdl/generated/designs.json from hdl/src/lib.rs
docs:
	$(CARGO) build $(RELEASE) -q --locked --bin pft-regs
	@# each file written whole beside its place, then moved over it: a failure keeps the old one
	gen() { t=$$1.new; shift; "$$@" > $$t && mv $$t $${t%.new} || { rm -f $$t; exit 1; }; }; \
	gen docs/registers.md $(BIN)/release/pft-regs && \
	for f in rdl:pft_regs.rdl sv:pft_regs_pkg.sv vh:pft_regs.vh h:pft_regs.h py:pft_regs.py; do \
	    gen hdl/generated/$${f#*:} $(BIN)/release/pft-regs --format $${f%%:*} || exit 1; done
	$(CARGO) build $(RELEASE) -q --locked --bin pft-verilog
	t=hdl/generated/designs.json.new; $(BIN)/release/pft-verilog --list > $$t && \
	    mv $$t hdl/generated/designs.json || { rm -f $$t; exit 1; }

fmt:
	$(CARGO) fmt --all

## lint: rustfmt check, clippy -D warnings (--locked), and the API docs built with -D warnings
##       (both in the release profile: rustdoc reuses the dependencies clippy checked, where
##       the dev profile checked them all again, 2 min 12 s of CI on 2 cores)
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy $(RELEASE) --locked --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc $(RELEASE) --locked --no-deps --workspace

clean:
	rm -rf $(OUT) synth/out synth/formal/out
