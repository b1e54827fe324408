#!/usr/bin/env python3
"""Does the core read the members of a feature's state, or of the decomposition's?

The core (src/sim/) holds each feature's state (the bonds, the membranes, the insertion regions'
progress) and the decomposition's (the ranks') and hands them to their functions; it reads and
writes none of their members (docs/architecture.md). This finds, in src/sim/'s .c and .h files with their comments left out,
every member of a feature's state type (read from the feature's header) reached from the name
the core holds it under (sim->bonds.n, sim->spawn[k].stop) or from a pointer of that type
(`const sim_bonds *bs = ...; bs->n`).

Usage: bench/feature_state.py [ROOT]    (default: this checkout)
Exit status 1 if the core reads any member, each printed as file:line.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# header: (state type, the names the core holds it under)
FEATURES = {
    "src/bonds/bonds.h": ("sim_bonds", ["bonds", "whole_bonds"]),
    "src/membrane/membranes.h": ("sim_membranes", ["mb"]),
    "src/insert/insert.h": ("spawn_state", ["spawn"]),
    "src/decomp/ranks_state.h": ("sim_ranks", ["ranks"]),
}


def uncommented(text):
    """The text with its comments blanked (lines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def members(header, type_name):
    """The member names of `typedef struct { ... } type_name;` in header."""
    with open(os.path.join(ROOT, header), encoding="utf-8") as f:
        text = uncommented(f.read())
    body = re.search(r"typedef struct \{([^{}]*)\}\s*" + type_name + r"\s*;", text)
    if not body:
        sys.exit(f"feature_state: no struct {type_name} in {header}")
    names = set()
    for decl in body.group(1).split(";"):
        decl = re.sub(r"\[[^\]]*\]", "", decl)
        for part in decl.split(","):
            word = re.findall(r"[A-Za-z_]\w*", part)
            if word:
                names.add(word[-1])
    return names


def reads(path, features):
    """(line, text) of each member read in the file at path."""
    with open(path, encoding="utf-8") as f:
        text = uncommented(f.read())
    found = []
    for type_name, (held, names) in features.items():
        aliases = set(re.findall(r"\b" + type_name + r"\s*\*\s*(?:const\s+)?([A-Za-z_]\w*)", text))
        holders = "|".join(re.escape(h) for h in sorted(set(held) | aliases))
        pattern = re.compile(r"\b(?:" + holders + r")\s*(?:\[[^\]]*\])?\s*(?:\.|->)\s*(" + "|".join(sorted(names)) +
                             r")\b")
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append((line, m.group(0)))
    return sorted(found)


def main():
    features = {t: (held, members(h, t)) for h, (t, held) in FEATURES.items()}
    core = os.path.join(ROOT, "src", "sim")
    total = 0
    for name in sorted(os.listdir(core)):
        if not name.endswith((".c", ".h")):
            continue
        for line, what in reads(os.path.join(core, name), features):
            print(f"src/sim/{name}:{line}: {what}")
            total += 1
    print(f"feature_state: the core reads {total} members of the features' and the decomposition's states "
          f"({', '.join(sorted(features))})")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
