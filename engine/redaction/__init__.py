"""Redaction: secrets are replaced by a keyed hash wherever Warden persists text (see redactor.py)."""
