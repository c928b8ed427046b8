"""The closed sets of strings ``event_types`` declares (issue 26 item 5)
are the ones the rules code uses: a face, die, role, prompt or end code
added to the rules and not to the declarations is named here."""
from __future__ import annotations

from typing import get_args

from referee.games.dice import dice_faces, ending, event_types, prompts, role_cards


def test_faces_dice_and_roles_are_the_rules() -> None:
    assert get_args(event_types.Face) == dice_faces.FACES
    assert get_args(event_types.DieKind) == tuple(dice_faces.DIE_FACES)
    assert set(get_args(event_types.Role)) == set(role_cards.ROLE_KINDS)


def test_prompt_kinds_and_end_codes_are_the_decision_codes() -> None:
    assert set(get_args(event_types.PromptKind)) == set(prompts.RULES)
    assert set(get_args(event_types.EndReason)) == set(ending.DETAILS)
