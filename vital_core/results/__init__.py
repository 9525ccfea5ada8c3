"""The results model and its files: examples, responses and subclaims (``model``), a loaded set as a
per-record frame (``dataset``) with its on-disk cache (``dataset_cache``), and the per-response export."""
