"""`rulekit lint`: every problem of the content, with a code, a position and a documented rule."""
