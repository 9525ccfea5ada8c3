"""Tests of the core, the CLI and the app's logic, without a browser."""
