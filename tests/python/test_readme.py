"""The documentation's Python examples run as written: every ```python block of README.md and of
every .md under docs/ (each in a fresh interpreter), and the ```sh blocks of the Python guide
(docs/guide/python.md) and of the README's "Python" section (importing from the build tree,
installing into a virtual environment without network access) from a folder where `build` is the
build tree."""
import os
import pathlib
import re
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
