"""One started game as a server process holds it, without any I/O.

Its records (:mod:`~packplay.table.records`), the process's copy of it and how a copy
moves to the next version (:mod:`~packplay.table.game_copy`), its seats' decisions and
their clocks (:mod:`~packplay.table.decisions`), and what its audiences are sent
(:mod:`~packplay.table.rendering`). Storage and the authority build on these; nothing
here waits, reads a clock or touches a socket or Redis.
"""
