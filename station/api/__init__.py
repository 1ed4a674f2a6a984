"""The dashboard's HTTP side: JSON API routes per resource, WebSocket live updates, pages."""

from station.api.app import create_app
from station.api.deps import Services, build_services

__all__ = ["Services", "build_services", "create_app"]
