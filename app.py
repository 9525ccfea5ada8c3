"""VITAL Explorer: `streamlit run app.py`.

The entry point only builds the shell — page config, navigation between the
five pages in ``pages/`` and the shared sidebar (backend, colour legend) —
and runs the chosen page. Every page calls ``vital_core`` for its numbers.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # pages import vital_core and explorer.widgets.ui from the project root
    sys.path.insert(0, str(ROOT))

from explorer.widgets import ui as _ui  # noqa: E402

_ui.app_shell().run()
