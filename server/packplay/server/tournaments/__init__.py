"""The I/O side of tournaments (:mod:`packplay.tournaments` is the pure side, with the same
names): the REST steps (``service``), the runner that carries running events forward
(``runner``), and the feeds that tell followers what changed (``feed``)."""
