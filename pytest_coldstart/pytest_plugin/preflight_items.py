"""Placeholder until preflight pytest integration lands (issue 5): registers nothing."""
