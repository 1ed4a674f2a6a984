"""Teaching packref a physical copy: catalogues learnt from the camera, then edited.

The package is generic: each function is given the game's
:class:`~station.catalogue.wiring.CatalogueWiring` (its record's ``catalogue``,
:mod:`station.games`) and never looks a game up by its name (:mod:`station.copies` does).

- :mod:`station.catalogue.wiring` — what a game says of its copy: the lesson, the reader,
  the questions, the lists;
- :mod:`station.catalogue.pieces` — one piece as the camera reads it, turned to a
  fixed orientation (a card's squares, a tagged piece's tag and shape);
- :mod:`station.catalogue.learn` — a stream of camera readings → a catalogue
  (``packref catalogue learn``, docs/formats.md §11);
- :mod:`station.catalogue.copy` — a copy's catalogue file: checked value by value
  with JSON paths, completed from the defaults, refused when the engine cannot play it;
- :mod:`station.catalogue.questions` and :mod:`station.catalogue.form` — the questions
  the camera cannot answer (``packref catalogue edit`` and the dashboard's catalogue page).
"""
