#!/usr/bin/env python3
"""Checks that every #include between the project's folders points down the layer order below.

A folder is lib/<name> or a top-level folder (baselines, cli). Within a folder anything goes; an
include of a folder that is not below the includer's (or is not listed) fails the check with the
file, line and both folders. Run by CTest (entry `layers`); `--graph` prints the folder graph.
Usage: scripts/check_layers.py [--graph] [SOURCE_DIR]
"""
import os
import re
import sys
from collections import Counter

# Bottom first. Each folder means one thing (README "Layout"):
LAYERS = [
    "lib/base",        # errors, file reading, sha256
    "lib/data",        # readers, one per data format
    "lib/structures",  # shared structures: CFG grammar and parses, linear chains
    "lib/eval",        # plain measures (no game): ranking, sequence, comparison, F-measures
    "lib/game",        # the game seam, restricted games, double oracle, LP backends
    "lib/learn",       # optimizers and generic solvers: value and gradient (or cut) at theta
    "lib/metrics",     # one metric game per file
    "lib/features",    # featurizers shared by MPG models and baselines (and the aligners they use)
    "lib/models",      # the MPG models (lib/models/binary: the binary MPG and its trainers)
    "lib/diversity",   # relevance-diversity protocol, recommenders, re-ranking, their measures
    "lib/stats",       # rank tests
    "baselines",       # the methods the papers compare against
    "lib/harness",     # specs -> cells -> tables (families in lib/harness/families)
    "cli",             # the mpg tool
]
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def folder(path):
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "lib" else parts[0]


def main(argv):
    graph = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    rank = {name: i for i, name in enumerate(LAYERS)}
    problems, arrows = [], Counter()
    for top in ("lib", "baselines", "cli"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".hpp", ".cpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                here = folder(path)
                if here not in rank:
                    problems.append(f"{path}: folder {here} is not in scripts/check_layers.py's LAYERS")
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or not os.path.exists(os.path.join(root, m.group(1))):
                            continue
                        there = folder(m.group(1))
                        if there == here:
                            continue
                        arrows[(here, there)] += 1
                        if there not in rank:
                            problems.append(f"{path}:{number}: includes {m.group(1)}, folder {there} is not in LAYERS")
                        elif rank[there] > rank[here]:
                            problems.append(f"{path}:{number}: {here} includes {m.group(1)} from {there}, a layer above it")
    if graph:
        for (a, b), n in sorted(arrows.items(), key=lambda e: (rank.get(e[0][0], 99), rank.get(e[0][1], 99))):
            print(f"{a} -> {b}  ({n} includes)")
    mutual = sorted({tuple(sorted(e)) for e in arrows if (e[1], e[0]) in arrows})
    for a, b in mutual:
        problems.append(f"folders {a} and {b} include each other")
    print(f"{len(rank)} folders, {len(arrows)} arrows between them, {len(problems)} problems")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
