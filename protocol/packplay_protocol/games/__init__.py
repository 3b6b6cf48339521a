"""Per-game wire types: actions, views and events of each mini-game."""
