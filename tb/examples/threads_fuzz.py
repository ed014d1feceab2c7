#!/usr/bin/env python3
"""Random networks at 1, 2 and 3 threads: the same results, or the same error, every time.

`sim/tests/net_threads.rs` compares every shipped scenario at 1, 2 and 3 threads. This
script reaches further, over configurations no scenario has: it draws COUNT random
`net-bench` command lines (topology and size, some written to a BookSim `anynet` file and
run from it, lanes, routing, switching, latencies, packet and message sizes, load,
pattern, congestion control, ACKs, warm-up, seed), runs each at 1, 2 and 3 threads and
once more at one thread with the invariant checker (`--check`), and requires for each the
same exit code, the same printed line once the fields that measure time or memory are
dropped (docs/performance.md, "Threads"), and the same error text but for the note that
says what stays on one thread. A panic anywhere is a failure. `make test` runs 300 draws
of seed 1 (`make threads-fuzz`).
Many draws are refused by `net-bench` (a pattern the size does not allow, a scheme that
needs a key the command line cannot set): those must be refused alike at every count.

    python3 tb/examples/threads_fuzz.py [--count N] [--seed S] [--netbench PATH]
                                        [--against OLD_NETBENCH]

With `--against`, each configuration also runs once on an older `net-bench` (another
revision's build, one thread), and where both run the printed results must be the same:
`tb/examples/same_results.sh` over random networks rather than the shipped scenarios. A
configuration the older build runs and this one refuses counts as a difference too (a
newer check may refuse on purpose: the output names it). Configurations the older build
refuses (flags it does not know) are not compared.

Exits 1 if any configuration differs, panics (here or on the older build) or runs past
900 s (each printed with its command line); 2 if a binary is missing.
Deterministic: the same seed draws the same configurations.
"""

import argparse
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile

TIME_FIELDS = re.compile(
    r" (build_s|wall_s|cpu_s|node_cycles_per_s|node_cycles_per_cpu_s|cycles_per_s|peak_rss_mib)=\S+"
)


def draw(rng: random.Random) -> tuple[list[str], list[str]]:
    """A command line, and (when not empty) the flags of a built-in topology that `main`
    writes as a BookSim `anynet` file first: the command line's `--topo file:{FILE}` runs it."""
    a: list[str] = []
    write: list[str] = []
    kind = rng.choice(["single", "torus", "mesh", "tree", "fly", "dragonfly", "dragonfly_lat", "ft120", "ft128"])
    lanes = False
    if kind == "single":
        a += ["--topo", f"single:{rng.randint(2, 12)}"]
    elif kind in ("torus", "mesh"):
        a += ["--topo", f"{kind}:{rng.randint(2, 6)},{rng.randint(1, 3)}"]
        if rng.random() < 0.8:
            lanes = True
            routings = ["dor", "duato", "disha"] + (["dor_no_dateline"] if kind == "torus" else [])
            a += ["--vcs", str(rng.randint(2, 5)), "--routing", rng.choice(routings)]
    elif kind in ("tree", "fly"):
        a += ["--topo", f"{kind}:{rng.randint(2, 4)},{rng.randint(1, 3)}"]
        if rng.random() < 0.4:
            lanes = True
            a += ["--vcs", str(rng.randint(1, 3))]
    elif kind.startswith("dragonfly"):
        p, k, h = rng.randint(1, 3), rng.randint(2, 4), rng.randint(1, 2)
        g = rng.randint(2, k * h + 1)
        routing = rng.choice(["min", "valiant", "ugal", "par"])
        vcs = rng.randint(4 if routing == "par" else 3, 5)
        a += ["--topo", f"dragonfly:{p},{k},{h},{g}", "--vcs", str(vcs), "--routing", routing]
        lanes = True
        if kind == "dragonfly_lat":
            a += ["--local-latency", str(rng.randint(1, 5)), "--global-latency", str(rng.randint(1, 30))]
    else:
        a += ["--topo", kind]
    if kind in ("torus", "mesh", "tree", "dragonfly", "dragonfly_lat", "ft120") and rng.random() < 0.25:
        # the same graph from a file (a dragonfly's latencies written into it), under a
        # routing for any graph
        topo = a[a.index("--topo") + 1]
        write = ["--topo", topo]
        for flag in ("--local-latency", "--global-latency"):
            if flag in a:
                write += [flag, a[a.index(flag) + 1]]
        a = ["--topo", "file:{FILE}"]
        routing = rng.choice(["updown", "shortest", "shortest_rising", "shortest_adaptive", "shortest_updown"])
        lanes = routing != "updown" or rng.random() < 0.5
        a += ["--routing", routing] + (["--vcs", str(rng.randint(2, 12))] if lanes else [])
        kind = "file"
    if lanes:
        r = rng.random()
        if r < 0.3:
            a += ["--lane-reuse", "tail"]
        elif r < 0.45:
            a += ["--lane-reuse", "empty"]  # a dragonfly's default is tail
        if rng.random() < 0.2:
            a += ["--head-latency", str(rng.randint(0, 4))]
        if rng.random() < 0.5:
            a += ["--vc-buf", str(rng.choice([2, 4, 8, 16, 32, 64]))]
        elif rng.random() < 0.2:
            # cut-through lanes hold a whole packet (64 flits by default)
            a += ["--switching", "vct", "--vc-buf", "64"]
    elif rng.random() < 0.2:
        a += ["--voq"]
    elif rng.random() < 0.15:
        a += ["--speedup", str(rng.randint(1, 3))]
    if rng.random() < 0.5 and "--local-latency" not in a:
        a += ["--link-latency", str(rng.randint(1, 12)), "--credit-latency", str(rng.randint(1, 12))]
    if rng.random() < 0.3:
        a += ["--switch-latency", str(rng.randint(0, 4))]
    if rng.random() < 0.5:
        a += ["--packet-flits", str(rng.choice([1, 2, 4, 8, 16]))]
    elif rng.random() < 0.3:
        a += ["--msg-bytes", str(rng.choice([64, 100, 1000, 8192, 20000]))]
    a += ["--load", str(rng.choice([0.01, 0.05, 0.1, 0.3, 0.5, 0.8, 1.0]))]
    # MVCM and Renato mark at switch inputs without lanes; self-tuned's side-band needs a
    # torus or mesh here (elsewhere a key the command line cannot set)
    schemes = ["none", "pft", "pft", "ibcc", "alo", "dcqcn"]
    schemes += [] if lanes else ["mvcm", "renato"]
    schemes += ["selftuned"] if kind in ("torus", "mesh") else []
    cc = rng.choice(schemes)
    a += ["--cc", cc]
    if cc == "pft" and rng.random() < 0.2:
        a += ["--pft", "off"]
    if rng.random() < 0.3:
        a += ["--pattern", rng.choice(
            ["transpose", "complement", "bitrev", "shuffle", "tornado", "permutation", "group_shift", "shift:3",
             "hotspot:0,30"])]
    if rng.random() < 0.15:
        a += ["--ack-bytes", str(rng.choice([8, 64]))]
    if rng.random() < 0.2:
        a += ["--warmup", str(rng.randint(0, 500))]
    a += ["--cycles", str(rng.randint(200, 3000)), "--seed", str(rng.randint(0, 1000))]
    return a, write


def outcome(netbench: str, args: list[str]) -> tuple[int, str, str, bool]:
    r = subprocess.run([netbench] + args, capture_output=True, text=True, timeout=900)
    lines = r.stdout.strip().splitlines()
    line = TIME_FIELDS.sub("", lines[-1]) if lines else ""
    line = line.replace(" check=true", " check=false")
    err = "\n".join(x for x in r.stderr.splitlines() if not x.startswith("note: --threads"))
    panicked = "panicked" in r.stderr or r.returncode not in (0, 1, 2)
    return r.returncode, line, err, panicked


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="configurations to draw (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
    ap.add_argument("--netbench", help="a net-bench binary (default: net-bench of the release build, built here: target/release, or under CARGO_TARGET_DIR)")
    ap.add_argument("--against", help="an older net-bench binary whose one-thread results must be the same")
    o = ap.parse_args()
    if o.count < 1:
        print(f"error: --count must be >= 1, got {o.count}", file=sys.stderr)
        return 2
    netbench = o.netbench
    if netbench is None:
        root = pathlib.Path(__file__).resolve().parents[2]
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "pft-sim", "--bin", "net-bench"],
                       cwd=root, check=True)
        rel = subprocess.run(["bash", str(root / "tb/release_dir.sh")], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
        netbench = rel + "/net-bench"
    for b in [netbench] + ([o.against] if o.against else []):
        if not (pathlib.Path(b).is_file() and os.access(b, os.X_OK)):
            print(f"error: {b} is not an executable file", file=sys.stderr)
            return 2
    rng = random.Random(o.seed)
    # per configuration, one outcome: ran, refused alike, write refused, or bad
    bad = ran = refused = unwritten = compared = 0
    tmp = tempfile.TemporaryDirectory(prefix="threads-fuzz-")
    for i in range(o.count):
        args, write = draw(rng)
        try:
            if write:
                path = f"{tmp.name}/{i}.anynet"
                w = subprocess.run([netbench] + write + ["--write-anynet", path], capture_output=True,
                                   text=True, timeout=900)
                if w.returncode != 0:
                    # refused (a 2-ary torus's double links): a refusal, unless it panicked
                    if "panicked" in w.stderr or w.returncode not in (1, 2):
                        bad += 1
                        print(f"PANICS: net-bench {' '.join(write)} --write-anynet FILE: {w.stderr[-300:]!r}")
                    else:
                        unwritten += 1
                    continue
                args = [x.replace("{FILE}", path) for x in args]
            runs = [outcome(netbench, args + ["--threads", str(t)]) for t in (1, 2, 3)]
            runs.append(outcome(netbench, args + ["--threads", "1", "--check"]))
            old = outcome(o.against, args) if o.against else None
        except subprocess.TimeoutExpired as e:
            bad += 1
            print(f"TIMES OUT (900 s): {' '.join(map(str, e.cmd))}", flush=True)
            continue
        problems = []
        if len({r[:3] for r in runs}) != 1 or any(r[3] for r in runs):
            problems.append(f"DIFFERS: net-bench {' '.join(args)}")
            if write:
                problems.append(f"  (the file: net-bench {' '.join(write)} --write-anynet FILE)")
            for label, r in zip(["1 thread", "2 threads", "3 threads", "1 thread --check"], runs):
                problems.append(f"  {label}: exit {r[0]} {r[1]} {r[2][-300:]!r}")
        if old is not None:
            if old[3]:
                problems.append(f"PANICS (older build): net-bench {' '.join(args)}")
            elif old[0] == 0:
                compared += 1
                if runs[0][:2] != old[:2]:
                    problems.append(f"DIFFERS FROM THE OLDER BUILD: net-bench {' '.join(args)}")
                    problems.append(f"  older: {old[1]}")
                    problems.append(f"  this:  exit {runs[0][0]} {runs[0][1]} {runs[0][2][-300:]!r}")
        if problems:
            bad += 1
            print("\n".join(problems), flush=True)
        elif runs[0][0] == 0:
            ran += 1
        else:
            refused += 1
    against = f"; {compared} also ran on the older build" if o.against else ""
    print(f"{o.count} configurations: {ran} ran alike, {refused} refused alike, {unwritten} not "
          f"written as a file (refused), {bad} differing, panicking or timing out{against}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
