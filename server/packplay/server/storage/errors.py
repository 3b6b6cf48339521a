"""What storage raises: one error type for every way Redis can fail a request.

Callers above storage catch :class:`StorageUnavailable` only, never the Redis client's own
errors: what went wrong underneath (a refused connection, a timeout, a redirection that
never settled, an error reply) is chained as its ``__cause__``, for the logs. Every such
failure means the same to a client: the request may succeed when sent again.
"""

from __future__ import annotations


class StorageUnavailable(Exception):
    """Redis did not answer in time, or failed the request: it may succeed when retried."""


class NotReplicated(StorageUnavailable):
    """A write the master applied, but that too few replicas acknowledged in time."""


def unavailable(error: BaseException) -> StorageUnavailable:
    """``error`` as storage raises it: itself when it is one of storage's, else chained."""
    if isinstance(error, StorageUnavailable):
        return error
    wrapped = StorageUnavailable(str(error) or type(error).__name__)
    wrapped.__cause__ = error
    return wrapped
