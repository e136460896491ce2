#!/usr/bin/env bash
# Installs the Debian packages the build needs, and only those that are missing.
# Runs apt-get through sudo when not root. Does nothing when everything is present.
# `install-deps.sh fuzz` adds what `make fuzz` needs: clang and its libFuzzer runtime.
set -euo pipefail

packages=(
  g++ cmake ninja-build make pkg-config python3 clang-format-14
  libboost-program-options-dev libboost-random-dev libboost-math-dev libboost-dev
  libtbb-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libeigen3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libdds-dev
  libeigen3-dev
  openmpi-bin libopenmpi-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib python3-venv
  python3-torch
)
if [ "${1:-}" = fuzz ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "error: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
