"""Reading what a modal submitted, from the interaction's raw data: for modals answered
by a persistent handler (no ``discord.ui.Modal`` instance holds their inputs after a
restart), such as Boggle's word list and the puzzle's Answer and Move forms."""

from __future__ import annotations

from collections.abc import Mapping


def modal_text(data: object, custom_id: str) -> str:
    """The value of text input ``custom_id`` in a modal submission's raw data (in an
    action row or a label); empty when it is not there."""
    stack: list[object] = list(data.get("components") or ()) if isinstance(data, Mapping) else []
    while stack:
        component = stack.pop()
        if not isinstance(component, Mapping):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"] or "")
        stack.extend(component.get("components") or ())
        if isinstance(component.get("component"), Mapping):
            stack.append(component["component"])
    return ""
