"""The `gardens` command line: one sub-command group per module in this package."""
