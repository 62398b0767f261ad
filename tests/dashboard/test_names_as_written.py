"""Names from the data are shown as written: the pages put dataset, feature and label names in
Markdown, where CAL500's ``Genre--_Alternative`` lost its underscore and turned the labels after
it italic, a ``$`` would start a formula and ``:red[...]`` colour text."""

import csv
import io

import numpy as np
import pytest
from apptest import shown, started
from stepping import step

from dashboard.markdown_text import SPECIAL, literal

LABELS = ["Genre--_Alternative", "a*b*c", ":red[x] $1$"]
DATASET = "prices_$_2024"


def marked_up(n: int, seed: int) -> bytes:
    """A CSV whose dataset, feature and label names are Markdown: every label planted on x."""
    r = np.random.default_rng(seed)
    x, cost = r.random(n), r.random(n)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["x", "cost_$_", *(f"label:{name}" for name in LABELS)])
    writer.writerows([a, b, int(a > 0.3), int(a < 0.6), int(b > 0.5)]
                     for a, b in zip(x, cost, strict=True))
    return text.getvalue().encode()


@pytest.mark.parametrize("text", [*LABELS, DATASET, "\\ `*_[]()#+-.!|~<>$:&=/ :material/cancel:"])
def test_literal_shows_every_character_as_written(text):
    escaped = literal(text)
    assert shown(escaped) == text
    bare = escaped
    for c in SPECIAL:
        bare = bare.replace("\\" + c, "")
    assert not set(bare) & SPECIAL  # each special character escaped


def _texts(at) -> list[str]:
    """The Markdown of every text element of the page and its sidebar."""
    kinds = ("markdown", "caption", "info", "warning", "success", "error", "subheader", "title")
    return [element.value for kind in kinds for element in [*at.get(kind),
                                                            *at.sidebar.get(kind)]]


def test_the_pages_show_names_from_the_data_as_written():
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value((f"{DATASET}.csv", marked_up(300, 0),
                                                  "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    assert session.split.dataset.name == DATASET
    assert list(session.split.dataset.label_names) == LABELS
    pages = {"data": _texts(at)}
    step(at)
    for page in ("explain", "population"):
        at = at.switch_page(f"views/{page}.py").run()
        assert not at.exception and not at.error
        pages[page] = _texts(at)
    texts = [text for page in pages.values() for text in page]
    for name in [*LABELS, DATASET]:
        assert not any(name in text for text in texts), name  # never as raw Markdown
    assert any(literal(DATASET) in text for text in pages["data"])  # the subheader and sidebar
    shown_on_explain = " ".join(map(shown, pages["explain"]))
    assert all(name in shown_on_explain for name in LABELS)  # the answers name every label
