"""The HTTP tier: the REST routes of the protocol's route table (``routes``), errors as
problem documents (``problems``), and the front page, documents and web client (``pages``,
with the static files under ``web/``)."""
