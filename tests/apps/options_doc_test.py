#!/usr/bin/env python3
"""The option tables in the docs are generated from the bots' own option tables
(sampling/pimc_options.cpp): each block between `<!-- generated: cardgames ARGS -->` and
`<!-- end generated -->` must be exactly what `cardgames ARGS` prints. To refresh one after
changing a table, replace the block with the command's output.

usage: options_doc_test.py CARDGAMES ROOT
"""
import pathlib, re, shlex, subprocess, sys

BLOCK = re.compile(r"<!-- generated: cardgames (.*?) -->\n(.*?)<!-- end generated -->", re.S)


def main():
    cardgames, root = sys.argv[1], pathlib.Path(sys.argv[2])
    checked, failed = 0, []
    for doc in sorted((root / "docs").rglob("*.md")):
        for m in BLOCK.finditer(doc.read_text()):
            args = shlex.split(m.group(1))
            out = subprocess.run([cardgames] + args, capture_output=True, text=True, check=True)
            checked += 1
            if out.stdout != m.group(2):
                failed.append(f"{doc.relative_to(root)}: the block of 'cardgames {m.group(1)}' "
                              "differs from what it prints now; paste its output over the block")
    if checked == 0:
        failed.append("no generated block found in docs/")
    for f in failed:
        print(f, file=sys.stderr)
    print(f"{checked} generated blocks checked")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
