"""Press the sidebar's Step in an AppTest and see the page as it is once the step's curve point
is made: the Step button makes it in a thread of its own (``Session.step``), and in the app the
live fragment's timer draws it when made; AppTest fires no timer, so a second ``run()`` does."""

from streamlit.testing.v1 import AppTest


def step(at: AppTest) -> AppTest:
    at.button(key="step").click().run()
    points = at.session_state["session"].points
    assert points.settled(timeout=60), "the step's curve point never came"
    return at.run()
