#!/usr/bin/env python3
"""Golden transcripts of `cardgames play` (piped input, --ascii, fixed seeds): each game's output
must be exactly the reviewed text in tests/apps/transcripts/NAME.out. A change of the table's look
is a change of those files: regenerate them with transcripts/make.py and review the diff."""
import difflib, pathlib, sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).parent / "transcripts"))
import make  # noqa: E402  (the one definition of how a transcript is run)


def main():
    exe = sys.argv[1]
    failed = []
    for args_file in sorted(make.HERE.glob("*.args")):
        name = args_file.stem
        args = args_file.read_text().split()
        lines = (make.HERE / f"{name}.in").read_text().splitlines()
        expected = (make.HERE / f"{name}.out").read_text()
        got = make.run(exe, args, lines)
        if got != expected:
            failed.append(name)
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                                       f"{name}.out (expected)", f"{name} (got)"))
        else:
            print(f"{name}: same as the transcript")
    if failed:
        raise SystemExit("transcripts that differ: " + ", ".join(failed))


if __name__ == "__main__":
    main()
