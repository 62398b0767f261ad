"""MLR Studio's entry point: ``streamlit run dashboard/streamlit_app.py``.

Sets the page up, runs the chosen page, then draws the shared training controls in the sidebar
(after the page, so they show a dataset the page just loaded; their callbacks run before any page).
"""

import streamlit as st

st.set_page_config(page_title="MLR Studio", page_icon=":material/grid_view:", layout="wide")
page = st.navigation([
    st.Page("views/train.py", title="Train (live)", icon=":material/model_training:",
            default=True),
    st.Page("views/population.py", title="Population", icon=":material/scatter_plot:"),
    st.Page("views/explain.py", title="Explain an instance", icon=":material/manage_search:"),
    st.Page("views/rules.py", title="Rules", icon=":material/table_rows:"),
    st.Page("views/theory.py", title="Theory", icon=":material/functions:"),
    st.Page("views/data.py", title="Data", icon=":material/dataset:"),
])
# The engine's imports (scikit-learn, numba, plotly) take seconds on a first run: paint the
# frame and say so first, instead of leaving the browser blank.
loading = st.empty()
loading.info("Starting the MLR engine...", icon=":material/hourglass_top:")
from dashboard import state, ui  # noqa: E402

loading.empty()
page.run()
ui.sidebar(state.get())
