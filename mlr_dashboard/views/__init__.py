"""One Streamlit page per module, run by st.navigation from mlr_dashboard/streamlit_app.py."""
