"""What may be shown: secrets redacted (``redaction``) and user text made safe for markdown (``markdown``)."""
