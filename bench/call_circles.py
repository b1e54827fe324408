#!/usr/bin/env python3
"""The circles of calls between the source files of src/, and the lines of each folder.

A file A calls file B when A's object file uses a function (or any symbol) that B's object file
defines: `nm` reads it from the build, so what counts is what the linker joins, not what the
text seems to say (a static inline function of a header belongs to every file that includes it).
A circle is a set of files each of which reaches every other by such calls (a strongly connected
component of more than one file). The layout wants none of more than three files, and none
across folders. The same by folder: folder A calls folder B when a file of A calls a file of B; a
circle of folders is a set of folders each of which reaches every other (the layers want none).

Usage: bench/call_circles.py [BUILD_DIR] [--calls] [--max-folders N]    (default: build)
  --calls          also print, for each file, the names it takes from each other file
  --max-folders N  let circles of up to N folders pass (default: none passes; tests/CMakeLists.txt's
                   `layering` runs without it)
Exit status 1 if a circle has more than three files or spans two folders, or there is a circle of
folders (of more than N).
"""
import os
import signal
import subprocess
import sys
from collections import defaultdict


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def object_files(build):
    """The object files of the library and the program, by their source path (src/...)."""
    found = {}
    for target in ("grains_lib.dir", "grains.dir", "grains_validate.dir", "grains_render.dir", "grains_parallel.dir"):
        top = os.path.join(build, "CMakeFiles", target)
        for folder, _, names in os.walk(top):
            for name in names:
                if name.endswith(".c.o"):
                    path = os.path.join(folder, name)
                    source = os.path.relpath(path, top)[: -len(".o")]
                    if source.startswith("src/") and os.path.exists(os.path.join(ROOT, source)):  # not a moved file's stale object
                        found[source] = path
    return found


def symbols(path):
    """The names an object file defines and the names it uses from elsewhere."""
    out = subprocess.run(["nm", "-P", path], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            used.add(name)
        elif kind in "TDBRCVW":
            defined.add(name)
    return defined, used


def calls_between(objects):
    """For each file, the files it calls and the names it takes from each."""
    owner, uses = {}, {}
    for source, path in objects.items():
        defined, used = symbols(path)
        for name in defined:
            owner[name] = source
        uses[source] = used
    calls = defaultdict(lambda: defaultdict(set))
    for source, used in uses.items():
        for name in used:
            other = owner.get(name)
            if other and other != source:
                calls[source][other].add(name)
    return calls


def circles(files, calls):
    """Tarjan's strongly connected components with more than one file, largest first."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in calls.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(files):
        if v not in index:
            visit(v)
    return sorted(found, key=lambda c: (-len(c), c))


def folder_calls(calls):
    """The calls between folders (src/X), each with how many names it takes."""
    between = defaultdict(lambda: defaultdict(set))
    for a, targets in calls.items():
        for b, names in targets.items():
            fa, fb = os.path.dirname(a), os.path.dirname(b)
            if fa != fb:
                between[fa][fb] |= names
    return between


def print_calls(circle, calls, shown):
    """With --calls, each call within the circle and what it takes, as `shown` writes it."""
    if "--calls" not in sys.argv:
        return
    for a in circle:
        for b in circle:
            if b in calls.get(a, {}):
                print(f"    {a} -> {b}: {shown(calls[a][b])}")


def lines_per_folder(root):
    """Lines of C (.c and .h) under each folder of src/, and the share of the whole."""
    lines = defaultdict(int)
    for folder, _, names in os.walk(os.path.join(root, "src")):
        for name in names:
            if name.endswith((".c", ".h")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    rel = os.path.relpath(folder, root)
                    lines[rel.split(os.sep)[1] if os.sep in rel else "src (loose files)"] += sum(1 for _ in f)
    return lines


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when piped into head
    argv = sys.argv[1:]
    max_folders = 1  # a circle has two folders at least: none passes
    if "--max-folders" in argv:
        at = argv.index("--max-folders")
        max_folders = int(argv[at + 1])
        del argv[at:at + 2]
    args = [a for a in argv if not a.startswith("--")]
    build = args[0] if args else "build"
    objects = object_files(build)
    if not objects:
        sys.exit(f"call_circles: no object files under {build}/CMakeFiles: build first (make build)")
    calls = calls_between(objects)
    found = circles(objects, calls)
    bad = 0
    print(f"{len(objects)} files, {sum(len(v) for v in calls.values())} calls between files")
    for circle in found:
        folders = sorted({os.path.dirname(f) for f in circle})
        wrong = len(circle) > 3 or len(folders) > 1
        bad |= wrong
        print(f"circle of {len(circle)} files{' (too large)' if len(circle) > 3 else ''}"
              f"{' across ' + ', '.join(folders) if len(folders) > 1 else ''}: {' '.join(circle)}")
        print_calls(circle, calls, lambda names: " ".join(sorted(names)))
    if not found:
        print("no circles")
    between = folder_calls(calls)
    folders = {os.path.dirname(f) for f in objects}
    found_folders = circles(folders, between)
    print(f"{len(folders)} folders, {sum(len(v) for v in between.values())} calls between folders")
    for circle in found_folders:
        grown = len(circle) > max_folders
        bad |= grown
        print(f"circle of {len(circle)} folders{' (more than ' + str(max_folders) + ')' if grown else ''}: "
              f"{' '.join(f.split('/', 1)[1] for f in circle)}")
        print_calls(circle, between, lambda names: f"{len(names)} names")
    if not found_folders:
        print("no circles of folders")
    lines = lines_per_folder(ROOT)
    total = sum(lines.values())
    print(f"lines of src/: {total}")
    for folder, n in sorted(lines.items(), key=lambda kv: -kv[1]):
        print(f"  {folder:20s} {n:6d}  {100.0 * n / total:5.1f}%")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
