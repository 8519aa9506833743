"""sgfcheck's version (read by the packaging too)."""

VERSION = "0.1.0"
