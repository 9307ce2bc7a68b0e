"""`rulekit test`: scenario files a designer writes without Python, run through the real engine."""
