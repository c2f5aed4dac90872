"""FinSearch: question → search graph → time-weighted evidence → cited answer.

The one entry point is `finsearch.pipeline.run`; this package never imports streamlit.
"""

__version__ = "0.1.0"
