"""Harness session importers: pi, Claude Code, Codex, and any registered by plugins.

``run.import_session`` is the entry point; ``registry`` finds importers by name.
"""
