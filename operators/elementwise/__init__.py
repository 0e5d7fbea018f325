"""Elementwise kernels of our own (bench and test workloads, no vendor sample behind them)."""
