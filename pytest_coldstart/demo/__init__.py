"""Deterministic example runs (layer 7): ``generate`` writes ``coldstart demo`` output,
``research`` the research-grade bundles, ``scenarios`` the builder and the scenario catalogue.
"""
