"""host.replay.agrees: a stored snapshot against the replayed one, across builds."""

from __future__ import annotations

from host.replay import agrees


def test_a_stored_dump_agrees_only_where_every_field_it_has_matches() -> None:
    rebuilt = {"a": 1, "b": [{"x": 1, "y": 2}, {"x": 3}], "new": {"deep": True}}
    assert agrees({"a": 1, "b": [{"x": 1}, {"x": 3}]}, rebuilt), "fields a later build added are not disagreements"
    assert not agrees({"a": 2, "b": [{"x": 1}, {"x": 3}]}, rebuilt)
    assert not agrees({"a": 1, "b": [{"x": 1}]}, rebuilt), "lists match item for item"
    assert not agrees({"a": 1, "gone": 0}, rebuilt), "a field the replay lacks is a disagreement"
    assert not agrees({"new": {"deep": 1}}, rebuilt), "true is not 1"
