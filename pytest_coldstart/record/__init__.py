"""Writing a run (layer 2): the recorder, the hash-chained trajectory and its lock, record
families and their taxonomy, redaction, logging settings, visibility snapshots, seal, migrate.
"""
