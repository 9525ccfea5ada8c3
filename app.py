"""VITAL Explorer: ``streamlit run app.py``.

The app is Streamlit's multipage folder: this entry page sends a visitor to the Score page,
keeping the URL's query; every page in ``pages/`` draws the shared shell itself
(``explorer.widgets.shell``).
"""
from explorer.widgets import shell

shell.go_home()
