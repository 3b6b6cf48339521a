"""Pure rules engines for the four mini-games, behind one interface (base.Game)."""
