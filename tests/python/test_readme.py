"""The README's Python examples run as written: every ```python block of the "Python" section (each
in a fresh interpreter), and its ```sh blocks (importing from the build tree, installing into a
virtual environment without network access) from a folder where `build` is the build tree."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(os.environ.get("CARDGAMES_README", pathlib.Path(__file__).parents[2] / "README.md"))


def section_blocks(language):
    text = README.read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```" + language + r"\n(.*?)^```", section, flags=re.S | re.M)


def build_dir():
    package = next(p for p in os.environ["PYTHONPATH"].split(os.pathsep) if (pathlib.Path(p) / "cardgames").is_dir())
    return pathlib.Path(package).parents[1]


def test_section_has_examples():
    assert len(section_blocks("python")) >= 3 and len(section_blocks("sh")) >= 2


@pytest.mark.parametrize("index", range(len(section_blocks("python"))))
def test_python_example(tmp_path, index):
    code = section_blocks("python")[index]
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"README python block {index}:\n{code}\n{run.stderr}"


@pytest.mark.parametrize("index", range(len(section_blocks("sh"))))
def test_shell_example(tmp_path, index):
    (tmp_path / "build").symlink_to(build_dir())
    code = section_blocks("sh")[index]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(["bash", "-e", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"README sh block {index}:\n{code}\n{run.stderr}"
