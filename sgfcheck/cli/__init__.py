"""The ``sgfcheck`` command line: one module a command, each thin (options -> settings -> one
library call -> the output registry); :mod:`sgfcheck.cli.app` registers them."""
