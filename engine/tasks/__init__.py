"""Durable tasks: the queue, the step dispatcher and the runner."""
