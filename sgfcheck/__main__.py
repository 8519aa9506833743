"""``python -m sgfcheck``: the command line."""

from sgfcheck.cli import main

main()
