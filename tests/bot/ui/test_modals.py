"""Reading a modal's text input from a submission's raw data (one reader for every
modal the cogs read raw: Boggle's word list, the puzzle's Answer and Move forms)."""

from __future__ import annotations

from bot.ui.modals import modal_text


def test_a_text_input_is_found_in_an_action_row_or_a_label() -> None:
    data = {
        "custom_id": "puzzle:answer:1",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "word", "value": "QUIZ"}]},
            {
                "type": 18,
                "label": "Position",
                "component": {"type": 4, "custom_id": "position", "value": "8H"},
            },
        ],
    }
    assert modal_text(data, "word") == "QUIZ"
    assert modal_text(data, "position") == "8H"


def test_a_missing_input_or_no_data_reads_as_empty() -> None:
    assert modal_text({"components": []}, "word") == ""
    assert modal_text(None, "word") == ""
    assert modal_text({"components": [{"custom_id": "word", "value": None}]}, "word") == ""
