"""The documentation's Python examples run as written: every ```python block of README.md and of
every .md under docs/ (each in a fresh interpreter), and the ```sh blocks of the Python guide
(docs/guide/python.md) and of the README's "Python" section (importing from the build tree,
installing into a virtual environment without network access) from a folder where `build` is the
build tree. The `cardgames` commands of the other ```sh blocks (the measurements of docs/results
take hours) are not run, but every bot spec and preset they name must still be accepted."""
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

README = pathlib.Path(os.environ.get("CARDGAMES_README", pathlib.Path(__file__).parents[2] / "README.md"))
DOCS = README.parent / "docs"
GUIDE = DOCS / "guide" / "python.md"


def fenced(text, language):
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def readme_python_section():
    parts = README.read_text().split("\n## Python\n", 1)
    return parts[1].split("\n## ", 1)[0] if len(parts) == 2 else ""


def documents():
    return [README] + sorted(DOCS.rglob("*.md"))


def python_blocks():
    return [(doc.relative_to(README.parent).as_posix(), code) for doc in documents() for code in fenced(doc.read_text(), "python")]


def shell_blocks():
    return [("README.md", code) for code in fenced(readme_python_section(), "sh")] + \
           [("docs/guide/python.md", code) for code in fenced(GUIDE.read_text(), "sh")]


# The options of a documented command that name bots, and the placeholders the documents use for a
# spec the text fills in (`B` = `pimc` or `oracle`, `M` a model's side, `E` the even share's).
SPEC_OPTIONS = {"--players", "--bots", "--spec", "--bot", "--policies", "--helper", "--reference"}
PLACEHOLDERS = {"B", "M", "E", "S", "SPEC"}


def documented_commands():
    """(document, command words) for each `cardgames` command of every ```sh block."""
    out = []
    for doc in documents():
        for block in fenced(doc.read_text(), "sh"):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                if words and words[0] == "mpirun":
                    words = words[next((i for i, w in enumerate(words) if w.endswith("cardgames")), len(words)):]
                if words and words[0].endswith("cardgames"):
                    out.append((doc.relative_to(README.parent).as_posix(), words))
    return out


def split_player_list(text):
    """As cardgames::split_player_list: a comma starts a new spec unless what follows it is a
    key=value option of the current one."""
    specs = []
    for piece in text.split(","):
        if specs and "=" in piece and ":" not in piece.split("=", 1)[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def documented_specs():
    specs = {}
    for doc, words in documented_commands():
        for option, value in zip(words, words[1:]):
            if option in SPEC_OPTIONS:
                for spec in split_player_list(value):
                    if spec.split(":", 1)[0] not in PLACEHOLDERS:
                        specs.setdefault(spec, doc)
    return sorted((doc, spec) for spec, doc in specs.items())


def documented_presets():
    return sorted({(doc, value) for doc, words in documented_commands() for option, value in zip(words, words[1:])
                   if option == "--preset"})


def test_documented_commands_found():
    assert len(documented_specs()) >= 40 and len(documented_presets()) >= 7


@pytest.mark.parametrize("doc,spec", documented_specs())
def test_documented_bot_spec(doc, spec):
    import cardgames
    if spec.startswith("external:"):
        return  # starting the program is the test of it; its options are checked by the bot tests
    try:
        cardgames.make_bot(spec)
    except cardgames.InputError as e:
        # A model file the documented commands make first (learn fit --out ...) is not in the tree.
        assert "cannot open the file" in str(e), f"{doc}: {spec}: {e}"


@pytest.mark.parametrize("doc,preset", documented_presets())
def test_documented_preset(doc, preset):
    assert (README.parent / "data" / "rules" / f"{preset}.ini").is_file() or preset.endswith(".ini"), f"{doc}: {preset}"


def build_dir():
    package = next(p for p in os.environ["PYTHONPATH"].split(os.pathsep) if (pathlib.Path(p) / "cardgames").is_dir())
    return pathlib.Path(package).parents[1]


def test_guide_has_examples():
    assert len(fenced(GUIDE.read_text(), "python")) >= 3 and len(fenced(GUIDE.read_text(), "sh")) >= 2


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_python_example(tmp_path, index):
    doc, code = python_blocks()[index]
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"{doc} python block:\n{code}\n{run.stderr}"


@pytest.mark.parametrize("index", range(len(shell_blocks())))
def test_shell_example(tmp_path, index):
    (tmp_path / "build").symlink_to(build_dir())
    doc, code = shell_blocks()[index]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(["bash", "-e", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"{doc} sh block:\n{code}\n{run.stderr}"
