"""The examples of the guides this package documents (docs/guide/openspiel.md, environment.md,
figures.md) run as written: every ```python block in a fresh interpreter, every ```sh block with
bash, each from a new folder where `build` is the build tree."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

GUIDES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide"
NAMES = ["openspiel.md", "environment.md", "figures.md"]


def blocks(name, language):
    text = (GUIDES / name).read_text()
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def build_dir():
    package = next(p for p in os.environ["PYTHONPATH"].split(os.pathsep) if (pathlib.Path(p) / "cardgames").is_dir())
    return pathlib.Path(package).resolve().parents[1]


CASES = [(name, language, i) for name in NAMES for language in ("python", "sh")
         for i in range(len(blocks(name, language)))]


def test_every_guide_has_examples():
    for name in NAMES:
        assert len(blocks(name, "python")) >= 2, name


@pytest.mark.parametrize("name,language,index", CASES)
def test_example(tmp_path, name, language, index):
    code = blocks(name, language)[index]
    (tmp_path / "build").symlink_to(build_dir())
    if language == "python":
        command = [sys.executable, "-c", code]
    else:
        command = ["bash", "-e", "-c", code]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"{name} {language} block {index}:\n{code}\n{run.stdout}\n{run.stderr}"
