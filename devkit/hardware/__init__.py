"""Drone validation and fixture tooling: a second sensor simulator built apart from
:mod:`hardware.simulate` (:mod:`devkit.hardware.simulate_platform`), scoring detected events
against a truth (:mod:`devkit.hardware.evaluation`) and the committed drone fixtures
(:mod:`devkit.hardware.fixtures`)."""
