"""The app's pages under Streamlit's AppTest."""
