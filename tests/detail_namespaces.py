#!/usr/bin/env python3
"""A `detail` namespace (`detail` or `*_detail`) is private to the files that declare it.

Usage: detail_namespaces.py SOURCE_DIR

Its own files are those that declare it and their header or source of the same name
(trick_play.cpp may use trick_play_detail from trick_play.hpp). A use anywhere else is named with
its file and line, and the check exits 1: what others need belongs in a public, named API.
"""

import re
import sys
from pathlib import Path

FOLDERS = ("engine", "cardgames", "sampling", "apps", "tests")
SUFFIXES = {".hpp", ".cpp", ".h", ".cc"}
DECLARE = re.compile(r"\bnamespace\s+(?:[A-Za-z_]\w*::)*((?:\w+_)?detail)\s*\{")
# pybind11::detail is another library's, which the bindings must reach into.
USE = re.compile(r"(?<!pybind11::)\b((?:[A-Za-z]\w*_)?detail)\s*(?:::|;)")


def sources(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                yield path


def stem(path):
    return path.with_suffix("")


def main():
    root = Path(sys.argv[1])
    texts = {path: path.read_text(encoding="utf-8") for path in sources(root)}
    owners = {}
    for path, text in texts.items():
        for name in DECLARE.findall(text):
            owners.setdefault(name, set()).add(stem(path))
    leaks = []
    for path, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            for name in USE.findall(line):
                if stem(path) not in owners.get(name, set()):
                    leaks.append(f"{path.relative_to(root)}:{number}: {name} used outside its own files")
    print("\n".join(leaks) if leaks else f"no detail namespace used outside its own files ({len(texts)} files)")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
