"""How far a P4Testgen build has got: the object files of ``p4testgen`` and of every
target it depends on that exist, out of all of them, from the Makefiles CMake wrote.

    python3 tools/p4testgen/progress.py BUILD_DIR [TARGET]

The make log cannot say this while make runs (its output may be buffered, and CMake's
own percentages count only the targets one make invocation visits). Objects are not
equal in cost (a unity file of the compiler takes minutes, one of protobuf seconds), so
the figure counts source files (a unity object counts the files it includes), which
tracks the time better than counting objects, but is no time estimate.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEP = re.compile(r"^(\S+)/all: (\S+)/all$")
OBJ = re.compile(r"^(\S+\.o): ")


def closure(build: Path, target_dir: str) -> set[str]:
    edges: dict[str, set[str]] = {}
    for line in (build / "CMakeFiles" / "Makefile2").read_text().splitlines():
        m = DEP.match(line)
        if m:
            edges.setdefault(m.group(1), set()).add(m.group(2))
    seen, todo = set(), [target_dir]
    while todo:
        t = todo.pop()
        if t not in seen:
            seen.add(t)
            todo.extend(edges.get(t, ()))
    return seen


def objects(build: Path, target_dirs: set[str]) -> list[Path]:
    out = set()
    for t in target_dirs:
        make = build / t / "build.make"
        if make.exists():
            out.update(m.group(1) for line in make.read_text().splitlines()
                       if (m := OBJ.match(line)))
    return [build / o for o in sorted(out)]


def sources_in(obj: Path) -> int:
    """Source files compiled into ``obj``: those a unity file includes, else one."""
    unity = obj.with_suffix("")     # .../Unity/unity_0_cxx.cxx.o -> .../unity_0_cxx.cxx
    if unity.parent.name == "Unity" and unity.exists():
        return max(1, sum(line.startswith("#include") for line in
                          unity.read_text(errors="replace").splitlines()))
    return 1


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    build = Path(argv[0])
    target = argv[1] if len(argv) > 1 else "p4testgen"
    if not (build / "CMakeFiles" / "Makefile2").exists():
        print(f"{build} is not a configured CMake build folder (no CMakeFiles/Makefile2)",
              file=sys.stderr)
        return 1
    wanted = [line.split("/all:")[0] for line in
              (build / "CMakeFiles" / "Makefile2").read_text().splitlines()
              if re.match(rf"^\S*CMakeFiles/{re.escape(target)}\.dir/all:", line)]
    if not wanted:
        print(f"no target {target!r} in {build}", file=sys.stderr)
        return 1
    objs = objects(build, closure(build, wanted[0]))
    weight = {o: sources_in(o) for o in objs}
    done = sum(w for o, w in weight.items() if o.exists())
    total = sum(weight.values())
    binary = build / target
    print(f"{target}: {done}/{total} source files compiled ({100 * done / max(total, 1):.0f}%), "
          f"{sum(o.exists() for o in objs)}/{len(objs)} objects"
          f"{'; linked: ' + str(binary) if binary.exists() else '; not linked yet'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
