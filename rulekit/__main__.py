"""`python -m rulekit` runs the command line."""

from rulekit.cli import main

main()
