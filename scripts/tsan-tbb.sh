#!/usr/bin/env bash
# Builds oneTBB with -fsanitize=thread from Debian's source package of the installed
# libtbb-dev version, once per machine, and prints its TBB_DIR (the directory holding
# TBBConfig.cmake) on stdout.
#
# Why: ThreadSanitizer only sees memory accesses and synchronisation in instrumented
# code. Against the system libtbb, TBB's own synchronisation (atomics, futexes in the
# scheduler) is invisible, so TSan reports false races between tasks. The same source
# version as the installed headers keeps ABI and behaviour identical to the normal build.
#
# Usage: bash scripts/tsan-tbb.sh DIR      (e.g. DIR=build-tsan/onetbb)
# Layout: DIR/<version>/{src,build,install,build.log}. install/ appears only when the
# build and install finished (it is staged and renamed last), so an interrupted run
# simply starts over on the next call.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi

# Stdout must carry only the final TBB_DIR (callers capture it); everything else -> stderr.
exec 3>&1 1>&2

die() { echo "tsan-tbb: error: $*" >&2; exit 1; }
say() { echo "tsan-tbb: $*" >&2; }

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || die "need root or sudo for apt-get"
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

# 1. Installed version. Use the *source* package name/version recorded by dpkg: it equals
#    the binary version except for binNMUs (+bN), which have no source of their own.
dpkg-query -W -f='${Status}' libtbb-dev 2>/dev/null | grep -q "install ok installed" \
  || die "libtbb-dev is not installed (run scripts/install-deps.sh first)"
src_pkg=$(dpkg-query -W -f='${source:Package}' libtbb-dev)
src_ver=$(dpkg-query -W -f='${source:Version}' libtbb-dev)
[ -n "$src_pkg" ] && [ -n "$src_ver" ] || die "cannot determine the source package of libtbb-dev"

top=$(realpath -m "$1")/$src_ver
install_dir=$top/install
tbb_dir=$install_dir/lib/cmake/TBB   # CMAKE_INSTALL_LIBDIR is forced to "lib" below

# 2. Already built: nothing to do.
if [ -f "$tbb_dir/TBBConfig.cmake" ]; then
  echo "$tbb_dir" >&3
  exit 0
fi

mkdir -p "$top"
# Serialise concurrent callers (e.g. two make jobs); the loser then finds the result.
exec 9>"$top/.lock"
flock 9
if [ -f "$tbb_dir/TBBConfig.cmake" ]; then
  echo "$tbb_dir" >&3
  exit 0
fi

say "building $src_pkg $src_ver with -fsanitize=thread in $top (once per machine)"

# 3. apt-get source needs dpkg-source (dpkg-dev) to unpack and patch.
if ! dpkg-query -W -f='${Status}' dpkg-dev 2>/dev/null | grep -q "install ok installed"; then
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends dpkg-dev
fi

# (Output captured first: "cmd | grep -q" can fail under pipefail when grep exits early.)
have_source() {
  local out
  out=$(apt-cache showsrc "$src_pkg" 2>/dev/null) || true
  grep -qx "Version: $src_ver" <<<"$out"
}

own_sources=/etc/apt/sources.list.d/cardgames-deb-src.sources

# Lists enabled deb822 stanzas from the given files; with "src" only those that already
# have deb-src, otherwise rewrites "deb" stanzas as deb-src ones (other fields kept verbatim,
# comments dropped, so URIs/Suites/Components/Signed-By match the binary entries).
deb822_stanzas() {
  local mode=$1; shift
  [ $# -gt 0 ] || return 0
  awk -v mode="$mode" '
    BEGIN { RS = ""; FS = "\n" }
    {
      types = ""; enabled = 1; body = ""
      for (i = 1; i <= NF; i++) {
        line = $i
        if (line ~ /^[ \t]*#/) continue
        if (tolower(line) ~ /^types:/) { types = " " substr(line, 7) " "; continue }
        if (tolower(line) ~ /^enabled:[ \t]*no/) enabled = 0
        body = body line "\n"
      }
      if (!enabled) next
      if (mode == "src" && types ~ /[ \t]deb-src[ \t]/) print FILENAME
      if (mode == "convert" && types ~ /[ \t]deb[ \t]/) printf "Types: deb-src\n%s\n", body
    }' "$@"
}

# Same for one-line "deb [opts] URI suite comps..." entries, emitted as deb822 stanzas.
oneline_to_deb822() {
  [ $# -gt 0 ] || return 0
  awk '
    /^[ \t]*deb[ \t]/ {
      line = $0; sub(/#.*/, "", line); sub(/^[ \t]*deb[ \t]+/, "", line)
      opts = ""
      if (line ~ /^\[/) { i = index(line, "]"); opts = substr(line, 2, i - 2); line = substr(line, i + 1) }
      sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
      n = split(line, f, /[ \t]+/)
      if (n < 2) next
      comps = ""
      for (i = 3; i <= n; i++) comps = comps (i > 3 ? " " : "") f[i]
      printf "Types: deb-src\nURIs: %s\nSuites: %s\n", f[1], f[2]
      if (comps != "") printf "Components: %s\n", comps
      if (match(opts, /signed-by=[^ \t]+/)) printf "Signed-By: %s\n", substr(opts, RSTART + 10, RLENGTH - 10)
      printf "\n"
    }' "$@"
}

if ! have_source; then
  shopt -s nullglob
  deb822_files=()
  for f in /etc/apt/sources.list.d/*.sources; do
    [ "$f" = "$own_sources" ] || deb822_files+=("$f")
  done
  oneline_files=(/etc/apt/sources.list.d/*.list)
  [ -f /etc/apt/sources.list ] && oneline_files+=(/etc/apt/sources.list)
  shopt -u nullglob

  configured=no
  if [ -f "$own_sources" ] \
     || [ -n "$(deb822_stanzas src "${deb822_files[@]}")" ] \
     || { [ ${#oneline_files[@]} -gt 0 ] && grep -qE '^[[:space:]]*deb-src[[:space:]]' "${oneline_files[@]}"; }; then
    configured=yes
  fi

  if [ "$configured" = no ]; then
    # Mirror the existing binary sources as deb-src in a file of our own; never edit theirs.
    tmp_sources=$(mktemp)
    {
      echo "# Written by cardgames scripts/tsan-tbb.sh: source entries mirroring the 'deb' ones,"
      echo "# needed for 'apt-get source' of onetbb (ThreadSanitizer build of TBB)."
      echo
      deb822_stanzas convert "${deb822_files[@]}"
      oneline_to_deb822 "${oneline_files[@]}"
    } >"$tmp_sources"
    grep -q '^Types: deb-src' "$tmp_sources" || { rm -f "$tmp_sources"; die "no 'deb' APT sources found to mirror as deb-src"; }
    say "adding $own_sources"
    "${sudo_cmd[@]}" install -m 0644 "$tmp_sources" "$own_sources"
    rm -f "$tmp_sources"
  fi
  # Also covers a deb-src entry that exists but whose index was never downloaded.
  "${sudo_cmd[@]}" apt-get update -qq
  have_source || die "source package $src_pkg=$src_ver is not available from the configured deb-src \
mirrors (it may have been superseded; a snapshot.debian.org deb-src entry for the date it was \
current would provide it)"
fi

# 4. Fetch, configure, build, install. Start from scratch: leftovers are from an interrupted run.
log=$top/build.log
stage=$top/stage
rm -rf "$top/src" "$top/build" "$stage" "$install_dir"
: >"$log"
fail() {
  echo "tsan-tbb: error: $1 failed; last lines of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
}

mkdir -p "$top/src"
# apt-get source downloads .dsc/.orig/.debian and dpkg-source unpacks them with Debian's patches.
(cd "$top/src" && apt-get source -q "$src_pkg=$src_ver") >>"$log" 2>&1 || fail "apt-get source $src_pkg=$src_ver"
src_dir=$(find "$top/src" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -f "$src_dir/CMakeLists.txt" ] || fail "locating the unpacked source"

# TBB_SANITIZE=thread: compile and link the library with -fsanitize=thread.
# TBB_STRICT=OFF: upstream defaults to -Werror; a newer compiler's warnings must not break this.
# TBBMALLOC_BUILD=OFF: the project does not use tbbmalloc, and it would fight TSan's allocator.
# TBB_ENABLE_IPO=OFF: LTO only costs build time here. hwloc search off: tbbbind is not needed.
# RelWithDebInfo: optimised like the system library, but TSan reports inside TBB get file:line.
cmake -S "$src_dir" -B "$top/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_INSTALL_PREFIX="$install_dir" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DTBB_SANITIZE=thread \
  -DTBB_TEST=OFF \
  -DTBB_EXAMPLES=OFF \
  -DTBBMALLOC_BUILD=OFF \
  -DTBB_STRICT=OFF \
  -DTBB_ENABLE_IPO=OFF \
  -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON \
  >>"$log" 2>&1 || fail "cmake configure"
cmake --build "$top/build" -j "$(nproc)" >>"$log" 2>&1 || fail "build"
# Install into a staging root, then rename into place: install/ existing means "complete".
DESTDIR="$stage" cmake --install "$top/build" >>"$log" 2>&1 || fail "install"
[ -f "$stage$tbb_dir/TBBConfig.cmake" ] || fail "finding TBBConfig.cmake in the staged install"
mv "$stage$install_dir" "$install_dir"
rm -rf "$stage" "$top/build"   # object files are no longer needed; keep src/ and the log

say "done: $tbb_dir"
echo "$tbb_dir" >&3
