"""Development tooling for packref: validation models, rehearsals, evaluation and the
makers of the committed fixtures.

The tests, the benchmarks and the fixture regeneration commands use it; the product
never does, and the wheel excludes it (``pyproject.toml`` packages only ``rules``,
``vision``, ``hardware``, ``firmware`` and ``station``). Run from a checkout: the
tests find it through pytest's rootdir, the benchmarks put the checkout on their path,
and ``python -m devkit....`` works from the repository root.

- ``devkit.vision``: the independent real-camera model and the vision fixture sets;
- ``devkit.hardware``: the second drone simulator, event scoring and the drone fixtures;
- ``devkit.station``: rendered teaching sessions for ``packref catalogue learn``.
"""
