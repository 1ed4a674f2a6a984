"""Vision validation and fixture tooling: an independent real-camera model
(:mod:`devkit.vision.realistic`) and the committed vision fixtures' recipes
(:mod:`devkit.vision.fixture_sets`)."""
