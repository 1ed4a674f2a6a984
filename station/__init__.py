"""The composition root: the ``packref`` command, the live table loop, storage, dashboard."""
