"""Shared test support: local OpenAI-protocol servers, fixtures and sample data, imported by tests and
benchmarks alike."""
