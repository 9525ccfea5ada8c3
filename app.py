"""VITAL Explorer: ``streamlit run app.py``.

The entry file: Streamlit runs it on every run; it draws the shell (page config, the sidebar) once and then
the page the URL names, one of ``pages/`` (``explorer.widgets.shell``).
"""
from explorer.widgets import shell

shell.run_app()
