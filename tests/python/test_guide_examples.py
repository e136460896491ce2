"""The shell examples of the guides of the Python package's layers (docs/guide/openspiel.md,
environment.md, figures.md) run as written with bash, each from a new folder where `build` is the
build tree. Their ```python blocks run in test_readme.py, with every document's."""
import os
import pathlib
import re
import subprocess

import pytest

GUIDES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide"
NAMES = ["openspiel.md", "environment.md", "figures.md"]


def blocks(name, language):
    text = (GUIDES / name).read_text()
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def build_dir():
    package = next(p for p in os.environ["PYTHONPATH"].split(os.pathsep) if (pathlib.Path(p) / "cardgames").is_dir())
    return pathlib.Path(package).resolve().parents[1]


def test_every_guide_has_examples():
    for name in NAMES:
        assert len(blocks(name, "python")) >= 2, name


@pytest.mark.parametrize("name,index", [(name, i) for name in NAMES for i in range(len(blocks(name, "sh")))])
def test_shell_example(tmp_path, name, index):
    code = blocks(name, "sh")[index]
    (tmp_path / "build").symlink_to(build_dir())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the example sets its own
    run = subprocess.run(["bash", "-e", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=240)
    assert run.returncode == 0, f"{name} sh block {index}:\n{code}\n{run.stdout}\n{run.stderr}"
