"""Placeholder until the plugin lands (issue 4): registers nothing."""
