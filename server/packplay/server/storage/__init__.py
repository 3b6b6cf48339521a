"""Storage: the only code that speaks to Redis.

Every key and channel name (``keys``); the Lua scripts that change a game or a tournament
atomically (``lua/``, one file each, loaded by ``scripts``); the stores the authority and
the tournaments use (``games``, ``tournaments``); the batched client they share
(``pipeline``, which reads replies through ``redis_connection``, the one place that takes
over a redis-py connection); the subscriber that carries other processes' moves here
(``fanout``); Redis URLs (``urls``); and the private Redis-compatible server started when
none is given (``embedded``). Whatever fails underneath is raised as
:class:`~packplay.server.storage.errors.StorageUnavailable`.
"""
