"""Client SDK and bots for Packplay; they depend only on the protocol package."""
