"""The WebSocket tier: a sans-I/O session per connection (``session``), the thin shell that
reads frames into it and carries out what it asks (``connection``), and the queue that
writes its frames out (``send_queue``)."""
