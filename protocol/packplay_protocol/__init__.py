"""The Packplay wire contract: typed messages, one codec, versions."""
