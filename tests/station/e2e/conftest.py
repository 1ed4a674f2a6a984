"""The API client over a fresh station (the same fixtures as the API's own tests)."""

from tests.station.api.conftest import client, services  # noqa: F401  (fixtures)
