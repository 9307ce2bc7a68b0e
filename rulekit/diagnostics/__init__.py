"""Diagnostics as rules: the table of every code (codes.py) and the documentation of each (texts.py).

Emitting code names the rule, `R.EMPTY_CHOICE`, never the string "RK223"; severity and title come
only from the table. It imports nothing of rulekit, so every layer may import it.
"""

from rulekit.diagnostics.codes import R as R
from rulekit.diagnostics.codes import rule as rule
