"""Boggle dice sets and the seeded shake that turns one into a grid.

Cubes are written as their six faces, a capital letter starting each face, so
"ABJMOQu" is A, B, J, M, O and Qu, and "AnErHeInQuTh" is the 6x6 set's cube of
two-letter faces.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from engines.boggle.grid import BoggleError, Grid, canonical_face
from engines.text import N_

_FACE = re.compile(r"[A-Z][a-z]?")


def _cubes(*written: str) -> tuple[tuple[str, ...], ...]:
    cubes = []
    for cube in written:
        faces = tuple(canonical_face(face) for face in _FACE.findall(cube))
        if len(faces) != 6 or "".join(_FACE.findall(cube)) != cube:
            raise AssertionError(f"bad cube {cube!r}")  # a typo in the tables below
        cubes.append(faces)
    return tuple(cubes)


@dataclass(frozen=True)
class DiceSet:
    """A named set of Boggle cubes, enough for one square grid: six faces each."""

    name: str
    description: str
    cubes: tuple[tuple[str, ...], ...]  # lowercase faces, 6 per cube

    @property
    def side(self) -> int:
        """The side of the grid the cubes fill (4 for 16 cubes)."""
        return math.isqrt(len(self.cubes))


CLASSIC_16 = DiceSet(
    "classic16",
    "Boggle, the original 16 cubes (1970s–80s)",
    _cubes(
        "AACIOT",
        "ABILTY",
        "ABJMOQu",
        "ACDEMP",
        "ACELRS",
        "ADENVZ",
        "AHMORS",
        "BIFORX",
        "DENOSW",
        "DKNOTU",
        "EEFHIY",
        "EGKLUY",
        "EGINTV",
        "EHINPS",
        "ELPSTU",
        "GILRUW",
    ),
)

NEW_16 = DiceSet(
    "new16",
    "Boggle, the newer 16 cubes (late 1980s on)",
    _cubes(
        "AAEEGN",
        "ABBJOO",
        "ACHOPS",
        "AFFKPS",
        "AOOTTW",
        "CIMOTU",
        "DEILRX",
        "DELRVY",
        "DISTTY",
        "EEGHNW",
        "EEINSU",
        "EHRTVW",
        "EIOSST",
        "ELRTTY",
        "HIMNQuU",
        "HLNNRZ",
    ),
)

BIG_25 = DiceSet(
    "big25",
    "Big Boggle, 25 cubes (5x5)",
    _cubes(
        "AAAFRS",
        "AAEEEE",
        "AAFIRS",
        "ADENNN",
        "AEEEEM",
        "AEEGMU",
        "AEGMNN",
        "AFIRSY",
        "BJKQuXZ",
        "CCENST",
        "CEIILT",
        "CEILPT",
        "CEIPST",
        "DDHNOT",
        "DHHLOR",
        "DHLNOR",
        "DHLNOR",
        "EIIITT",
        "EMOTTT",
        "ENSSSU",
        "FIPRSY",
        "GORRVW",
        "IPRRRY",
        "NOOTUW",
        "OOOTTU",
    ),
)

# The real 6x6 set has a cube with three blank faces (E I O and three blanks);
# a blank cell cannot start or join a word, so the bot prints letters there
# instead: L, N and T, common consonants that keep the cube's vowels useful.
SUPER_36 = DiceSet(
    "super36",
    "Super Big Boggle, 36 cubes (6x6) with multi-letter faces; the blank faces read L, N, T",
    _cubes(
        "AAAFRS",
        "AAEEEE",
        "AAEEOO",
        "AAFIRS",
        "ABDEIO",
        "ADENNN",
        "AEEEEM",
        "AEEGMU",
        "AEGMNN",
        "AEILMN",
        "AEINOU",
        "AFIRSY",
        "AnErHeInQuTh",
        "BBJKXZ",
        "CCENST",
        "CDDLNN",
        "CEIITT",
        "CEIPST",
        "CFGNUY",
        "DDHNOT",
        "DHHLOR",
        "DHHNOW",
        "DHLNOR",
        "EHILRS",
        "EIILST",
        "EILPST",
        "EIOLNT",
        "EMTTTO",
        "ENSSSU",
        "GORRVW",
        "HIRSTV",
        "HOPRST",
        "IPRSYY",
        "JKQuWXZ",
        "NOOTUW",
        "OOOTTU",
    ),
)

DICE_SETS: dict[str, DiceSet] = {dice.name: dice for dice in (CLASSIC_16, NEW_16, BIG_25, SUPER_36)}
DEFAULT_DICE_FOR_SIDE = {4: "classic16", 5: "big25", 6: "super36"}


def dice_set(name: str) -> DiceSet:
    """The dice set called ``name``; any other name is refused with the choices."""
    try:
        return DICE_SETS[name]
    except KeyError:
        raise BoggleError(
            N_("Unknown dice set {name}: choose one of {choices}."),
            name=repr(name),
            choices=", ".join(DICE_SETS),
        ) from None


def dice_for_side(side: int) -> DiceSet:
    """The default dice for a 4x4, 5x5 or 6x6 grid."""
    try:
        return DICE_SETS[DEFAULT_DICE_FOR_SIDE[side]]
    except KeyError:
        raise BoggleError(N_("Boggle grids are 4x4, 5x5 or 6x6.")) from None


def roll(dice: DiceSet | str, seed: int | str) -> Grid:
    """Shake the dice: shuffle the cubes' positions, then show one face of each.

    The same dice and seed always give the same grid (store the seed to rebuild
    it). Changing this procedure would change every stored round's grid.
    """
    chosen = dice_set(dice) if isinstance(dice, str) else dice
    rng = random.Random(seed)
    cubes = list(chosen.cubes)
    rng.shuffle(cubes)
    return Grid(tuple(rng.choice(cube) for cube in cubes), chosen.side)
