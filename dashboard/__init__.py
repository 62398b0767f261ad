"""MLR Studio's Streamlit dashboard: watch MLR learn, question its rules, audit the rule set.

Run it with ``streamlit run dashboard/streamlit_app.py`` from the repository's root.
"""
