"""``migrate-check port``: write the RegBase version of a MemBase kernel, then prove it (issue 23)."""
