#!/usr/bin/env python3
"""Renumber the routers of a BookSim anynet file at random (seeded), NICs unchanged.

    python3 tb/anynet/relabel.py IN.net SEED OUT.net

The graph, its per-link latencies and every NIC's router stay the same; only the routers'
numbers change, and with them what a file routing decides by number: the order of a
router's ports (NICs first, then neighbours by number), which of several equal next hops a
destination takes, and the up*/down* root and levels. So runs of one file under several
seeds measure the noise of the routing's own choices (docs/network.md, "Topologies from a
file"). SEED 0 renumbers nothing. OUT must not exist.

    --keep-first       router 0 keeps its number, the others are shuffled (on a torus or a
                       dragonfly, router 0 is the up*/down* root)
    --blocks A         shuffle whole blocks of A consecutive routers (a dragonfly's groups:
                       A = routers a group), each block's routers kept in a row and in order
"""
import os
import random
import sys


def main():
    args = sys.argv[1:]
    keep_first = "--keep-first" in args
    args = [a for a in args if a != "--keep-first"]
    blocks = None
    if "--blocks" in args:
        i = args.index("--blocks")
        a = args[i + 1] if i + 1 < len(args) else ""
        if not (a.isascii() and a.isdigit()) or int(a) < 1:
            sys.exit("error: --blocks takes a whole number >= 1")
        blocks = int(a)
        del args[i : i + 2]
    if len(args) != 3 or (keep_first and blocks):
        sys.exit("usage: relabel.py IN.net SEED OUT.net [--keep-first | --blocks A]")
    src, seed, dst = args
    if not (seed.isascii() and seed.isdigit()):
        sys.exit(f"error: SEED must be a whole number >= 0, got '{seed}'")
    if os.path.exists(dst):
        sys.exit(f"error: {dst} exists; give a new file")
    def number(word):
        # a whole number as the simulator reads one (`+2` too), else None
        w = word[1:] if word.startswith("+") else word
        return int(w) if w.isascii() and w.isdigit() else None

    lines = []
    routers = set()
    # (a byte-order mark is skipped, as the simulator skips it)
    with open(src, encoding="utf-8-sig") as f:
        for no, raw in enumerate(f, 1):
            words = raw.split("#")[0].split()
            if not words:
                continue
            # (kind, number, latency or None) triples: BookSim's `router R` / `node N`,
            # each optionally followed by a latency
            items = []
            i = 0
            while i < len(words):
                kind = words[i]
                if kind not in ("router", "node") or i + 1 >= len(words):
                    sys.exit(f"error: {src} line {no}: `{kind}`: `router N` or `node N` expected")
                num = number(words[i + 1])
                if num is None:
                    sys.exit(f"error: {src} line {no}: `{words[i + 1]}`: a whole number expected")
                lat = None
                if i + 2 < len(words) and number(words[i + 2]) is not None:
                    lat = str(number(words[i + 2]))
                    i += 1
                items.append((kind, num, lat))
                if kind == "router":
                    routers.add(num)
                i += 2
            lines.append(items)
    order = sorted(routers)
    new = list(order)
    rng = random.Random(int(seed))
    if blocks and len(order) % blocks != 0:
        sys.exit(f"error: --blocks {blocks}: {len(order)} routers are not whole blocks")
    if int(seed) != 0 and blocks:
        b = list(range(len(order) // blocks))
        rng.shuffle(b)
        new = [order[b[k // blocks] * blocks + k % blocks] for k in range(len(order))]
    elif int(seed) != 0 and keep_first:
        rest = new[1:]
        rng.shuffle(rest)
        new = new[:1] + rest
    elif int(seed) != 0:
        rng.shuffle(new)
    perm = dict(zip(order, new))
    out = []
    for items in lines:
        words = []
        for kind, num, lat in items:
            words += [kind, str(perm[num] if kind == "router" else num)]
            if lat is not None:
                words.append(lat)
        out.append(" ".join(words))
    # the lines in the order of their new router numbers (a file's line order decides nothing)
    out.sort(key=lambda l: int(l.split()[1]))
    with open(dst, "x") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
