"""Benchmarks: ``python -m benchmarks`` prints metric, budget, median, p99."""
