"""MLR Studio's Streamlit dashboard: watch MLR learn, question its rules, audit the rule set."""
