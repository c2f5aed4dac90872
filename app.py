"""FinSearch — the Streamlit entry point.

    streamlit run app.py

Pages live in `pages/` and are thin: they read session state, call `finsearch`, and
render with the helpers in `ui/`.
"""

from ui import shell

shell.run()
