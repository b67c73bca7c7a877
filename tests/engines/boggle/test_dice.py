import pytest

from engines.boggle import (
    DICE_SETS,
    FACES,
    MULTI_LETTER_FACES,
    BoggleError,
    dice_for_side,
    dice_set,
    roll,
)


@pytest.mark.parametrize(
    ("name", "cubes"), [("classic16", 16), ("new16", 16), ("big25", 25), ("super36", 36)]
)
def test_each_dice_set_has_its_number_of_six_faced_cubes(name, cubes):
    dice = dice_set(name)
    assert len(dice.cubes) == cubes
    assert all(len(cube) == 6 for cube in dice.cubes)
    assert all(face in FACES for cube in dice.cubes for face in cube)
    assert dice.side**2 == cubes


def test_only_the_6x6_set_has_the_two_letter_faces_besides_qu():
    super_faces = {face for cube in dice_set("super36").cubes for face in cube}
    assert set(MULTI_LETTER_FACES) <= super_faces
    for name in ("classic16", "new16", "big25"):
        faces = {face for cube in dice_set(name).cubes for face in cube}
        assert faces & set(MULTI_LETTER_FACES) == {"qu"}


def test_no_cube_has_a_bare_q():
    assert all("q" not in cube for dice in DICE_SETS.values() for cube in dice.cubes)


def test_same_seed_rebuilds_the_same_grid():
    for name in DICE_SETS:
        assert roll(name, 1234) == roll(name, 1234)
        assert roll(name, "round-17") == roll(name, "round-17")


def test_different_seeds_give_different_grids():
    grids = {roll("classic16", seed) for seed in range(50)}
    assert len(grids) == 50


def test_rolled_grid_takes_one_face_from_each_cube():
    dice = dice_set("new16")
    for seed in range(20):
        faces = list(roll(dice, seed).cells)
        assert _assignable(faces, [set(cube) for cube in dice.cubes])


def _assignable(faces, cubes):
    """Whether each face can come from a different cube (bipartite matching)."""
    owner: dict[int, int] = {}

    def place(face_index, seen):
        for cube_index, cube in enumerate(cubes):
            if faces[face_index] in cube and cube_index not in seen:
                seen.add(cube_index)
                if cube_index not in owner or place(owner[cube_index], seen):
                    owner[cube_index] = face_index
                    return True
        return False

    return all(place(i, set()) for i in range(len(faces)))


def test_rolls_stay_the_same_across_releases():
    # Stored rounds are rebuilt from their seed: this grid must never change.
    assert str(roll("classic16", 1)) == "A H I T/A Z E N/X G U A/I E D A"


def test_grid_size_follows_the_dice():
    assert (roll("big25", 3).width, roll("big25", 3).height) == (5, 5)
    assert (roll("super36", 3).width, roll("super36", 3).height) == (6, 6)


def test_default_dice_by_side():
    assert dice_for_side(4).name == "classic16"
    assert dice_for_side(5).name == "big25"
    assert dice_for_side(6).name == "super36"
    with pytest.raises(BoggleError):
        dice_for_side(7)


def test_unknown_dice_set_raises_boggle_error_listing_the_choices():
    with pytest.raises(BoggleError, match="classic16"):
        roll("giant49", 1)
