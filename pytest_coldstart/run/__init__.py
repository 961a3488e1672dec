"""The on-disk run format (layer 1): errors, clocks, hashing, JSON I/O, contained paths,
the run directory layout, versions and v1 translators, vocabulary, payload store, schemas.

Nothing here writes a run on its own behalf or judges one; every other layer builds on it.
"""
