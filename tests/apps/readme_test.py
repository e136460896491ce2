#!/usr/bin/env python3
"""Every example in README.md that shows a `cardgames` command with its output (a fenced block
whose lines start with `$ `) is run and its output compared, so that the README cannot drift.

usage: readme_test.py CARDGAMES README.md

In the expected text a line `...` (indented or not) stands for any number of lines, and times
(`12 ms`, `0.5 s`) are not compared. Each block runs in a fresh folder, its commands in order (so
one may read the file another wrote), with `cardgames` the executable under test. A block with a
command that is not `cardgames` (or a `printf ... |` into it), such as the cluster example, is not
run and is listed as skipped.
"""
import os, pathlib, re, shlex, subprocess, sys, tempfile

TIME = re.compile(r"\b\d+(\.\d+)? (ms|s)\b")
# The plain progress line a batch prints every few seconds when stderr is no terminal: whether it
# appears at all depends on how fast the machine is (a sanitizer build, a busy machine), as times do.
PROGRESS = re.compile(r"^\d+/\d+ .* \(\d+\.\d%\), [\d.]+/s on .*, ETA ")


def blocks(readme):
    """(first line number, [(command, expected lines)]) for each fenced block with `$ ` lines."""
    lines = readme.read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if not body or not body[0].startswith("$ "):
            continue
        steps, k = [], 0
        while k < len(body):
            cmd = body[k][2:]
            while cmd.endswith("\\"):
                k += 1
                cmd = cmd[:-1] + " " + body[k].strip()
            k += 1
            expected = []
            while k < len(body) and not body[k].startswith("$ "):
                expected.append(body[k])
                k += 1
            while expected and not expected[-1].strip():  # a blank line between two commands
                expected.pop()
            steps.append((cmd, expected))
        out.append((start, steps))
    return out


def runnable(cmd):
    words = shlex.split(cmd)
    if words[0] == "cardgames":
        return True
    return words[0] == "printf" and "|" in words and words[words.index("|") + 1] == "cardgames"


def matches(expected, got):
    """Does `got` fit `expected`, where a `...` line stands for any number of lines?"""
    e = [TIME.sub("<time>", l.rstrip()) for l in expected]
    g = [TIME.sub("<time>", l.rstrip()) for l in got]

    def fit(i, j):
        if i == len(e):
            return j == len(g)
        if e[i].strip() == "...":
            return any(fit(i + 1, k) for k in range(j, len(g) + 1))
        return j < len(g) and e[i] == g[j] and fit(i + 1, j + 1)

    return fit(0, 0)


def main():
    exe, readme = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
    root = readme.resolve().parent
    failures, ran, skipped = [], 0, []
    for line, steps in blocks(readme):
        if not all(runnable(cmd) for cmd, _ in steps):
            skipped.append(line)
            continue
        with tempfile.TemporaryDirectory() as d:
            bin_dir = pathlib.Path(d) / "bin"
            bin_dir.mkdir()
            (bin_dir / "cardgames").symlink_to(exe)
            (pathlib.Path(d) / "data").symlink_to(root / "data")  # the deal sets and presets, as in the project
            env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
            for cmd, expected in steps:
                p = subprocess.run(cmd, shell=True, cwd=d, env=env, capture_output=True, text=True, timeout=600)
                got = [l for l in (p.stdout + p.stderr).splitlines() if not PROGRESS.match(l)]
                ran += 1
                if not matches(expected, got):
                    failures.append(f"README.md line {line}: $ {cmd}\n--- expected\n" + "\n".join(expected) +
                                    "\n--- got\n" + "\n".join(got))
    for f in failures:
        print(f, "\n")
    print(f"{ran} README commands run, blocks skipped at lines {skipped}")
    if failures:
        raise SystemExit(f"{len(failures)} README examples differ from what the program prints")


if __name__ == "__main__":
    main()
