"""``python -m sgfcheck``: the command line."""

from sgfcheck.cli.app import main

main()
