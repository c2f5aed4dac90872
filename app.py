"""FinSearch — the Streamlit entry point: page set-up and navigation.

    streamlit run app.py

The pages are thin: they read session state, call `finsearch`, and render (`ui/`).
"""

import logging

import streamlit as st

logging.getLogger("yfinance").setLevel(logging.CRITICAL)   # failures reach people as node reasons

st.set_page_config(page_title="FinSearch", page_icon="📈", layout="wide")

navigation = st.navigation([
    st.Page("pages/chat.py", title="Chat", icon=":material/forum:", default=True),
    st.Page("pages/history.py", title="History", icon=":material/history:", url_path="history"),
    st.Page("pages/settings.py", title="Settings", icon=":material/tune:", url_path="settings"),
])
navigation.run()
