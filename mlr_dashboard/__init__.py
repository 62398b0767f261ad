"""MLR Studio's Streamlit dashboard: watch MLR learn, question its rules, audit the rule set.

Run it with ``streamlit run mlr_dashboard/streamlit_app.py``. The package is named after the
project (not ``dashboard``) so that installing it never shadows another project's module.
"""
