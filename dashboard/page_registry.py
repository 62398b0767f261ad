"""The dashboard's pages, declared once: the app's navigation is built from `PAGES`, and the app
test, the browser tests and the classroom benchmark open the pages by these names and titles.

Pure (no Streamlit): the tests and the benchmark read it without starting the app.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page of the dashboard."""

    #: The view that draws it: ``dashboard/views/<name>.py``.
    name: str
    #: Its title in the sidebar's navigation and at the top of the page.
    title: str
    #: Its icon in the navigation (a material symbol: drawn without the internet).
    icon: str
    #: Whether its body is drawn in the live fragment (``ui.live``): it redraws while the tab
    #: trains.
    live: bool = False

    @property
    def path(self) -> str:
        """The view's script relative to the entry point, as ``st.Page`` and AppTest's
        ``switch_page`` take it."""
        return f"views/{self.name}.py"


#: The pages in the navigation's order; the first is the one a new tab opens.
PAGES = (
    Page("train", "Train (live)", ":material/model_training:", live=True),
    Page("population", "Population", ":material/scatter_plot:", live=True),
    Page("microscope", "Microscope", ":material/biotech:"),
    Page("time_travel", "Time travel", ":material/history:"),
    Page("race", "Race: EM vs HL", ":material/compare_arrows:"),
    Page("explain", "Explain an instance", ":material/manage_search:"),
    Page("rules", "Rules", ":material/table_rows:"),
    Page("theory", "Theory", ":material/functions:"),
    Page("data", "Data", ":material/dataset:"),
    Page("experiments", "Experiments", ":material/leaderboard:"),
)
#: The pages by name.
BY_NAME = {page.name: page for page in PAGES}


def titles(*names: str) -> list[str]:
    """The titles of the pages ``names``, in that order."""
    return [BY_NAME[name].title for name in names]
