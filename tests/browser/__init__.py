"""The app in real headless Chromium."""
