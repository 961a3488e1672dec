"""External evidence (test-mod events, the agent logger, answer, oracle, fixture, restore):
loading with containment and hash checks (``load``), alias projection (``aliases``), bounded
reading (``reader``), the single trajectory scan (``scan``), captured content (``content``) and
inventory item comparison (``inventory``).
"""
