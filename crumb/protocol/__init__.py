"""The event protocol: what may be written to a transcript, and the models every role exchanges."""

from crumb.protocol.events import (
    ACTORS,
    GROUND_TRUTH_KINDS,
    KINDS,
    SCHEMA_VERSION,
    Envelope,
    Meta,
    event_adapter,
    json_schema,
    parse_event,
)
from crumb.protocol.game import Criterion, Expect, Probe, ProbeStep, Spec

__all__ = [
    "ACTORS",
    "GROUND_TRUTH_KINDS",
    "KINDS",
    "SCHEMA_VERSION",
    "Criterion",
    "Envelope",
    "Expect",
    "Meta",
    "Probe",
    "ProbeStep",
    "Spec",
    "event_adapter",
    "json_schema",
    "parse_event",
]
