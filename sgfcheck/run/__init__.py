"""Runs over many files: the batch pipeline on this machine's workers or a Dask cluster, its
report file, parts and summary."""
