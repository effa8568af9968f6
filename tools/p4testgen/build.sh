#!/usr/bin/env bash
# Build P4Testgen (p4lang/p4c: backends/p4tools/modules/testgen) with its Tofino target, offline,
# from git repositories that are already on this machine. See tools/p4testgen/README.md.
#
#   tools/p4testgen/build.sh WORKDIR SOURCES [--configure-only]
#
# SOURCES holds one git repository per dependency, as a bare snapshot <owner>+<name>/repo
# or as a plain clone <owner>+<name> (p4lang+p4c, protocolbuffers+protobuf,
# abseil+abseil-cpp, gabime+spdlog, p4lang+p4runtime, pantor+inja). With
# P4TESTGEN_CLONE=1 a missing one is cloned from GitHub into SOURCES first.
# Environment: P4C_REF (default HEAD of p4lang+p4c), JOBS (default: number of cores),
# Z3_DIR (a Z3 4.11 prefix with include/ and lib/libz3.so; default: the PyPI wheel,
# installed into WORKDIR/deps/z3). The binary is WORKDIR/build/p4testgen; running the
# script again resumes the build where it stopped.
set -euo pipefail

usage() { echo "usage: $0 WORKDIR SOURCES [--configure-only]" >&2; exit 2; }
[ $# -ge 2 ] || usage
mkdir -p "$1"
WORK=$(cd "$1" && pwd)
SOURCES=$(cd "$2" && pwd) || { echo "no such folder: $2" >&2; exit 2; }
CONFIGURE_ONLY=${3:-}
[ -z "$CONFIGURE_ONLY" ] || [ "$CONFIGURE_ONLY" = --configure-only ] || usage
JOBS=${JOBS:-$(nproc)}

# The pins: p4c's CMake fetches these at exactly these tags/commits (cmake/Protobuf.cmake,
# cmake/Abseil.cmake, CMakeLists.txt for p4runtime, backends/p4tools/modules/testgen for inja);
# the Tofino back end uses spdlog 1.8.3 from its third_party folder.
P4C_REF=${P4C_REF:-HEAD}
declare -A PIN=(
  [protocolbuffers+protobuf]=v25.3
  [abseil+abseil-cpp]=20240722.1
  [gabime+spdlog]=v1.8.3
  [p4lang+p4runtime]=ec4eb5ef70dbcbcbf2f8357a4b2b8c2f218845a5
  [pantor+inja]=3741c73ba78babd2ed88f2acf2fcd6dafdb878e8
)

say() { echo "== $(date -u +%H:%M:%S) $*"; }

# the git directory of dependency $1 in SOURCES (bare snapshot or clone), cloning if allowed
git_dir_of() {
  local name=$1 d
  for d in "$SOURCES/$name/repo" "$SOURCES/$name"; do
    if [ -d "$d" ] && git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1; then echo "$d"; return; fi
    if [ -d "$d/.git" ]; then echo "$d/.git"; return; fi
  done
  if [ "${P4TESTGEN_CLONE:-0}" = 1 ]; then
    git clone --quiet "https://github.com/${name/+//}.git" "$SOURCES/$name" >&2
    echo "$SOURCES/$name/.git"; return
  fi
  echo "missing source repository $name: put a clone at $SOURCES/$name (or a bare snapshot at" \
       "$SOURCES/$name/repo), or rerun with P4TESTGEN_CLONE=1 to clone it from GitHub" >&2
  exit 1
}

# export $2 of repository $1 into $3, top-level entry by entry: a snapshot may lack large
# blobs nobody here needs (p4c's docs), and one missing entry must not lose the others
export_tree() {
  local gd ref=$2 dest=$3 entry
  gd=$(git_dir_of "$1")
  [ -f "$dest/.exported" ] && return 0
  rm -rf "$dest"; mkdir -p "$dest"
  git --git-dir="$gd" rev-parse --verify --quiet "$ref^{commit}" >/dev/null || {
    echo "$1 has no commit $ref (fetch it into $gd)" >&2; exit 1; }
  while IFS= read -r entry; do
    git --git-dir="$gd" archive "$ref" -- "$entry" 2>/dev/null | tar -x -C "$dest" 2>/dev/null \
      || echo "   (not in the snapshot, skipped: $1 $entry)"
  done < <(git --git-dir="$gd" ls-tree --name-only "$ref")
  git --git-dir="$gd" rev-parse "$ref^{commit}" > "$dest/.exported"
}

say "prerequisites (Debian 12 packages)"
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake g++ make git bison flex libfl-dev \
    libgmp-dev libgc-dev libboost-dev libboost-graph-dev libboost-iostreams-dev \
    libboost-filesystem-dev libboost-system-dev pkg-config python3-venv rapidjson-dev >/dev/null
fi
for tool in cmake g++ bison flex git python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (see tools/p4testgen/README.md)" >&2; exit 1; }
done

say "sources"
export_tree p4lang+p4c "$P4C_REF" "$WORK/src/p4c"
for dep in "${!PIN[@]}"; do export_tree "$dep" "${PIN[$dep]}" "$WORK/deps/$dep"; done

say "local changes to p4c (tools/p4testgen/README.md, 'Local changes')"
# 1. GCC 12's libstdc++ hands std::erase_if's predicate a const element of the std::map;
#    the lambda in ir/visitor.cpp takes it by non-const reference and does not compile.
sed -i 's/\[this\](flow_join_points_t::value_type &el)/[this](const flow_join_points_t::value_type \&el)/' \
  "$WORK/src/p4c/ir/visitor.cpp"
grep -q 'const flow_join_points_t::value_type &el' "$WORK/src/p4c/ir/visitor.cpp" || {
  echo "the GCC 12 change to ir/visitor.cpp no longer applies: check that p4c revision" >&2; exit 1; }
# 2. the Tofino back end includes spdlog from its own third_party folder (a submodule
#    upstream, absent from a snapshot)
tp="$WORK/src/p4c/backends/tofino/third_party/spdlog"
[ -f "$tp/include/spdlog/spdlog.h" ] || { rm -rf "$tp"; mkdir -p "$(dirname "$tp")"; cp -r "$WORK/deps/gabime+spdlog" "$tp"; }

say "Z3 4.11 (p4c needs 4.8.14 <= version < 4.12; Debian 12 ships 4.8.12)"
if [ -z "${Z3_DIR:-}" ]; then
  Z3_DIR="$WORK/deps/z3"
  if [ ! -f "$Z3_DIR/lib/libz3.so" ]; then
    python3 -m venv "$WORK/deps/z3-wheel"
    "$WORK/deps/z3-wheel/bin/pip" install --quiet z3-solver==4.11.2
    pkg=$("$WORK/deps/z3-wheel/bin/python" -c 'import os, z3; print(os.path.dirname(z3.__file__))')
    mkdir -p "$Z3_DIR/lib"
    cp -r "$pkg/include" "$Z3_DIR/include"
    cp -P "$pkg"/lib/libz3.so* "$Z3_DIR/lib/"
  fi
fi
[ -f "$Z3_DIR/include/z3.h" ] && [ -f "$Z3_DIR/lib/libz3.so" ] || {
  echo "Z3_DIR=$Z3_DIR has no include/z3.h and lib/libz3.so" >&2; exit 1; }

say "configure ($WORK/build)"
mkdir -p "$WORK/build"
cd "$WORK/build"
if [ ! -f Makefile ]; then
  off=()
  for opt in P4TEST BMV2 EBPF UBPF DPDK P4TC P4FMT GTESTS DOCS P4C_GRAPHS LTO \
             TOOLS_TARGET_BMV2 TOOLS_TARGET_EBPF TOOLS_TARGET_PNA; do
    off+=("-DENABLE_$opt=OFF")
  done
  cmake "$WORK/src/p4c" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
    -DENABLE_TOFINO=ON -DENABLE_TEST_TOOLS=ON -DCMAKE_UNITY_BUILD=ON "${off[@]}" \
    -DP4C_USE_PREINSTALLED_BDWGC=ON \
    -DUSE_PREINSTALLED_Z3=ON -DCMAKE_PREFIX_PATH="$Z3_DIR" -DZ3_INCLUDE_DIR="$Z3_DIR/include" \
    -DZ3_LIB="$Z3_DIR/lib/libz3.so" \
    -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
    -DFETCHCONTENT_SOURCE_DIR_PROTOBUF="$WORK/deps/protocolbuffers+protobuf" \
    -DFETCHCONTENT_SOURCE_DIR_ABSEIL="$WORK/deps/abseil+abseil-cpp" \
    -DFETCHCONTENT_SOURCE_DIR_SPDLOG="$WORK/deps/gabime+spdlog" \
    -DFETCHCONTENT_SOURCE_DIR_P4RUNTIME="$WORK/deps/p4lang+p4runtime" \
    -DFETCHCONTENT_SOURCE_DIR_INJA="$WORK/deps/pantor+inja" > configure.log 2>&1 || {
      tail -30 configure.log >&2; echo "cmake failed: $WORK/build/configure.log" >&2; exit 1; }
  grep -q "Enabling target tofino" configure.log || {
    echo "cmake did not enable P4Testgen's Tofino target: $WORK/build/configure.log" >&2; exit 1; }
fi
[ "$CONFIGURE_ONLY" = --configure-only ] && { say "configured"; exit 0; }

say "build: make -j$JOBS p4testgen, niced (hours on 2 cores; progress: python3 tools/p4testgen/progress.py $WORK/build)"
nice -n 19 make -j"$JOBS" p4testgen
# the Tofino architecture files (tna.p4, tofino1_arch.p4, ...) beside the binary, in
# build/p4include where P4Testgen looks: p4c copies them in bf-p4c's linkp4cbarefoot
# target, which the p4testgen target does not depend on ("tna.p4: No such file")
make linkp4cbarefoot
test -f "$WORK/build/p4include/tna.p4"
test -x "$WORK/build/p4testgen"
say "built: $WORK/build/p4testgen"
echo "use it: export P4TESTGEN=$WORK/build/p4testgen; make p4testgen-regen"
