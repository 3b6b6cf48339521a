"""Subcommands of the ``packplay`` command line."""
