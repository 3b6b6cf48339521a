"""The authoritative server: REST lobby and WebSocket play, all game state in Redis."""
