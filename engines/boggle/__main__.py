"""Command line: solve a grid or roll one.

python -m engines.boggle solve "QU A T E/B C D E/F G H I/J K L M" [--lexicon PATH] [--min N]
python -m engines.boggle roll --size 4 [--dice classic16] --seed 42
"""

from __future__ import annotations

import argparse
import sys

from engines.boggle.dice import DICE_SETS, dice_for_side, dice_set, roll
from engines.boggle.grid import BoggleError, Grid
from engines.boggle.points import DEFAULT_MIN_LENGTH
from engines.boggle.solver import solve
from engines.lexicon import LexiconError, load_lexicon


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engines.boggle", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    solve_cmd = commands.add_parser("solve", help="print every word on a grid with its score")
    solve_cmd.add_argument(
        "grid", help='rows split by "/", cells by spaces: "QU A T E/B C D E/..."'
    )
    solve_cmd.add_argument("--lexicon", help="word-list file or built-in name (default: default)")
    solve_cmd.add_argument(
        "--min",
        type=int,
        default=DEFAULT_MIN_LENGTH,
        dest="min_length",
        help=f"minimum word length (default {DEFAULT_MIN_LENGTH}, the game's default)",
    )

    roll_cmd = commands.add_parser("roll", help="shake the dice and print the grid")
    roll_cmd.add_argument("--size", type=int, choices=(4, 5, 6), default=4)
    roll_cmd.add_argument("--dice", choices=sorted(DICE_SETS), help="dice set (default: by size)")
    roll_cmd.add_argument("--seed", required=True, help="same seed, same grid")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``solve`` or ``roll``; the exit status (2 for a bad grid, dice set or word list)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "solve":
            grid = Grid.parse(args.grid)
            words = solve(grid, load_lexicon(args.lexicon), args.min_length)
            for word, points in sorted(words.items(), key=lambda item: (-item[1], item[0])):
                print(f"{word.upper()} {points}")
        else:
            dice = dice_set(args.dice) if args.dice else dice_for_side(args.size)
            if dice.side != args.size:
                raise BoggleError(f"The {dice.name} dice make a {dice.side}x{dice.side} grid.")
            seed = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
            print(roll(dice, seed))
    except (BoggleError, LexiconError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
