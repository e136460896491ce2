"""Shared by the Python module's tests: the presets, the executable under test, the run length."""
import faulthandler
import os

import pytest

PRESETS = ["hearts3", "hearts4", "hearts5", "hearts6", "spades-partnership", "spades-cutthroat3",
           "spades-cutthroat4"]
# CARDGAMES_LONG=1: the long run (thousands of hands per preset).
LONG = os.environ.get("CARDGAMES_LONG") == "1"


@pytest.fixture(scope="session")
def cardgames_bin():
    path = os.environ.get("CARDGAMES_BIN")
    if not path:
        pytest.fail("CARDGAMES_BIN must name the cardgames executable (CTest sets it)")
    return path


@pytest.fixture
def watchdog(request):
    """A run that should end: past the module's WATCHDOG_SECONDS, dump every thread's stack and exit
    (CTest's TIMEOUT is the outer bound). Modules opt in with pytest.mark.usefixtures."""
    faulthandler.dump_traceback_later(request.module.WATCHDOG_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
