"""Storage: the only code that speaks to Redis.

Every key and channel name (:mod:`~packplay.server.storage.keys`), the Lua scripts that
change a game or a tournament atomically (``lua/``, loaded by
:mod:`~packplay.server.storage.scripts`), the stores the authority and the tournaments
use (:mod:`~packplay.server.storage.games`, :mod:`~packplay.server.storage.tournaments`),
the batched client they share (:mod:`~packplay.server.storage.pipeline`,
:mod:`~packplay.server.storage.link`), the subscriber that carries other processes'
moves here (:mod:`~packplay.server.storage.fanout`) and the private Redis-compatible
server started when none is given (:mod:`~packplay.server.storage.embedded`).
"""
