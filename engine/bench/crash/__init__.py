"""`warden bench crash`: long seeded plans of workspace operators, run by worker processes that are
SIGKILLed at step boundaries and mid-step, then compared with the same plans run without a crash."""
