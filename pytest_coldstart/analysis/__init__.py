"""Analysis over finished runs (layer 6): ``summary.json`` per run and ``compare`` across runs."""
