"""What the AppTest tests share: the app's file, a wait for its run to finish, and the text a
page shows."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT

APP = str(ROOT / "app.py")


def settle(at: AppTest, seconds: float = 30) -> AppTest:
    """AppTest never fires `run_every`: rerun until no turn is running."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        at.run()
        assert not at.exception, at.exception
        if not any(t.running for t in at.session_state["finsearch_chat"].turns):
            at.run()
            return at
        time.sleep(0.1)
    raise AssertionError("the run did not finish")


def text_of(at: AppTest) -> str:
    """The page's markdown and captions, one to a line."""
    return "\n".join([*(m.value for m in at.markdown), *(c.value for c in at.caption)])
