#!/usr/bin/env python3
"""`cmake --install` gives a working copy that needs neither the source tree nor the build tree:
the executable and the Python package find the installed data relative to themselves, after the
prefix has been moved, and the package imports into a virtual environment made with no network.

usage: install_test.py CMAKE BUILD_DIR

The installed data gets a preset that exists nowhere else (install-probe), so a run that reads
the source tree's data instead fails.
"""
import os, pathlib, shutil, subprocess, sys, tempfile


def run(cmd, env, cwd):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=240)
    if r.returncode != 0:
        sys.exit(f"FAILED ({r.returncode}): {' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}")
    return r.stdout


def main():
    cmake, build = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    env = {k: v for k, v in os.environ.items() if k not in ("CARDGAMES_DATA", "PYTHONPATH")}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        installed = tmp / "installed"
        run([cmake, "--install", build, "--prefix", installed], env, tmp)
        data = installed / "share/cardgames/data"
        shutil.copy(data / "rules/hearts4.ini", data / "rules/install-probe.ini")
        prefix = tmp / "moved"
        installed.rename(prefix)

        exe = prefix / "bin/cardgames"
        out = run([exe, "tournament", "--preset", "install-probe", "--players", "pimc:worlds=2,rule,rule,rule",
                   "--hands", "1", "--seed", "3", "--out", "t.jsonl"], env, tmp)
        assert (tmp / "t.jsonl").stat().st_size > 0, out

        site = next(prefix.glob("lib/python3*/dist-packages"))
        venv = tmp / "venv"
        run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "--without-pip", venv], env, tmp)
        purelib = run([venv / "bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                      env, tmp).strip()
        pathlib.Path(purelib, "cardgames.pth").write_text(f"{site}\n")
        check = ("import cardgames, sys; r = cardgames.Rules('install-probe'); "
                 f"assert cardgames.__file__.startswith({str(site)!r}), cardgames.__file__; print(r)")
        print(run([venv / "bin/python", "-c", check], env, tmp).strip())
    print("install: ok")


if __name__ == "__main__":
    main()
