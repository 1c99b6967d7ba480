"""Benchmark scripts: each prints its figures, measured as ratios in one run."""
