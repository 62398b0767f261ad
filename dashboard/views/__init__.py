"""One Streamlit page per module, run by st.navigation from dashboard/studio.py."""
