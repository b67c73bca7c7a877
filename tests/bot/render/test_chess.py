from concurrent.futures import ThreadPoolExecutor

import chess
import pytest

from bot.render.chess import (
    CHECK_GLOW,
    COORDINATE_TEXT,
    DARK_SQUARE,
    FRAME,
    LAST_MOVE_DARK,
    LAST_MOVE_LIGHT,
    LIGHT_SQUARE,
    board_geometry,
    render_chess_board,
)
from tests.bot.render.pixels import count_dark, count_near, count_unlike, decode, png_mode

SIZE = 400
GEOMETRY = board_geometry(SIZE)


def box(square: chess.Square, orientation: chess.Color = chess.WHITE) -> tuple[int, int, int, int]:
    return GEOMETRY.square_box(square, orientation)


def corner_pixel(image, square, orientation=chess.WHITE):
    """A pixel near the square's top-left corner, where no piece reaches."""
    left, top, _, _ = box(square, orientation)
    return image.getpixel((left + 2, top + 2))


def centre_pixel(image, square, orientation=chess.WHITE):
    left, top, right, bottom = box(square, orientation)
    return image.getpixel(((left + right) // 2, (top + bottom) // 2))


def board_after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def test_image_is_an_indexed_png_of_the_requested_size():
    png = render_chess_board(chess.Board(), size=SIZE)
    assert decode(png).size == (SIZE, SIZE)
    assert png_mode(png) == "P"
    assert decode(render_chess_board(chess.Board(), size=256)).size == (256, 256)


def test_board_fills_the_image_inside_a_frame():
    assert GEOMETRY.origin > 0
    assert 8 * GEOMETRY.square + 2 * GEOMETRY.origin in (SIZE, SIZE - 1)
    image = decode(render_chess_board(chess.Board(None)))
    assert image.getpixel((1, 1)) == FRAME


def test_a1_is_dark_and_h1_light_with_exact_square_colours():
    image = decode(render_chess_board(chess.Board(None)))
    assert centre_pixel(image, chess.A1) == DARK_SQUARE
    assert centre_pixel(image, chess.H1) == LIGHT_SQUARE
    assert centre_pixel(image, chess.A8) == LIGHT_SQUARE
    assert centre_pixel(image, chess.E4) == LIGHT_SQUARE
    assert centre_pixel(image, chess.D4) == DARK_SQUARE


def test_a1_is_bottom_left_for_white():
    left, _top, _right, bottom = box(chess.A1, chess.WHITE)
    assert left == GEOMETRY.origin
    assert bottom == GEOMETRY.origin + 8 * GEOMETRY.square


def test_a1_is_top_right_for_black():
    _left, top, right, _bottom = box(chess.A1, chess.BLACK)
    assert top == GEOMETRY.origin
    assert right == GEOMETRY.origin + 8 * GEOMETRY.square


def test_orientation_flips_where_a_lone_piece_is_drawn():
    board = chess.Board(None)
    board.set_piece_at(chess.A1, chess.Piece(chess.ROOK, chess.WHITE))
    bottom_left = (GEOMETRY.origin, GEOMETRY.origin + 7 * GEOMETRY.square)
    top_right = (GEOMETRY.origin + 7 * GEOMETRY.square, GEOMETRY.origin)

    def ink_at(image, corner):
        x, y = corner
        return count_unlike(image, (x, y, x + GEOMETRY.square, y + GEOMETRY.square), DARK_SQUARE)

    as_white = decode(render_chess_board(board, orientation=chess.WHITE))
    as_black = decode(render_chess_board(board, orientation=chess.BLACK))
    assert ink_at(as_white, bottom_left) > 50
    assert ink_at(as_white, top_right) == 0
    assert ink_at(as_black, top_right) > 50
    assert ink_at(as_black, bottom_left) == 0


def test_pieces_are_drawn_on_occupied_squares_only():
    image = decode(render_chess_board(chess.Board()))
    assert count_unlike(image, box(chess.E1), DARK_SQUARE) > 100
    assert count_unlike(image, box(chess.E4), LIGHT_SQUARE) == 0
    assert count_unlike(image, box(chess.D5), LIGHT_SQUARE) == 0


def test_white_pieces_are_filled_white_inside_a_dark_outline():
    image = decode(render_chess_board(chess.Board()))
    for square in (chess.E1, chess.D1, chess.A2, chess.B1):
        assert count_near(image, box(square), (255, 255, 255), tolerance=0) > 40
        assert count_dark(image, box(square)) > 30


def test_black_pieces_are_dark_bodies():
    image = decode(render_chess_board(chess.Board()))
    assert count_near(image, box(chess.E8), (24, 24, 24), tolerance=40) > 200
    assert count_near(image, box(chess.E7), (24, 24, 24), tolerance=40) > 100


def test_last_move_squares_are_tinted_and_others_are_not():
    image = decode(render_chess_board(board_after("e4")))
    # e2 and e4 are light squares; d3 is an untouched light square.
    assert corner_pixel(image, chess.E2) == LAST_MOVE_LIGHT
    assert corner_pixel(image, chess.E4) == LAST_MOVE_LIGHT
    assert corner_pixel(image, chess.D3) == LIGHT_SQUARE
    assert corner_pixel(image, chess.E2) != corner_pixel(image, chess.D3)


def test_last_move_on_dark_squares_uses_the_dark_tint():
    image = decode(render_chess_board(board_after("Nf3")))
    assert corner_pixel(image, chess.G1) == LAST_MOVE_DARK
    assert corner_pixel(image, chess.F3) == LAST_MOVE_LIGHT


def test_explicit_last_move_overrides_the_move_stack():
    board = board_after("e4")
    image = decode(render_chess_board(board, last_move=chess.Move.from_uci("g1f3")))
    assert corner_pixel(image, chess.G1) == LAST_MOVE_DARK
    assert corner_pixel(image, chess.E2) == LIGHT_SQUARE


def test_board_without_moves_has_no_highlight():
    image = decode(render_chess_board(chess.Board()))
    assert corner_pixel(image, chess.E2) == LIGHT_SQUARE
    assert corner_pixel(image, chess.E4) == LIGHT_SQUARE


def test_checked_king_square_glows_red():
    board = board_after("f3", "e5", "g4", "Qh4")  # fool's mate: white king on e1 in check
    image = decode(render_chess_board(board))
    r, g, b = corner_pixel(image, chess.E1)
    plain = corner_pixel(image, chess.C1)  # another dark square with a piece
    assert plain == DARK_SQUARE
    assert (r, g, b) != plain
    assert r - g > plain[0] - plain[1]  # redder than the plain square
    assert count_near(image, box(chess.E1), CHECK_GLOW, tolerance=60) > 20


def test_king_not_in_check_is_not_highlighted():
    image = decode(render_chess_board(board_after("e4", "e5")))
    assert corner_pixel(image, chess.E1) == DARK_SQUARE
    assert corner_pixel(image, chess.E8) == LIGHT_SQUARE


def test_black_king_in_check_is_highlighted_from_blacks_side_too():
    board = board_after("e4", "f5", "Qh5")  # check on e8
    image = decode(render_chess_board(board, orientation=chess.BLACK))
    assert corner_pixel(image, chess.E8, chess.BLACK) != LIGHT_SQUARE


def test_coordinates_are_written_in_the_frame():
    image = decode(render_chess_board(chess.Board(None)))
    left, _, right, bottom = box(chess.A1)
    below_a1 = (left, bottom, right, SIZE)
    left_of_a1 = (0, bottom - GEOMETRY.square, left, bottom)
    assert count_near(image, below_a1, COORDINATE_TEXT, tolerance=40) > 5
    assert count_near(image, left_of_a1, COORDINATE_TEXT, tolerance=40) > 5


def test_file_labels_follow_the_orientation():
    white = decode(render_chess_board(chess.Board(None), orientation=chess.WHITE))
    black = decode(render_chess_board(chess.Board(None), orientation=chess.BLACK))
    bottom_row = (0, SIZE - GEOMETRY.origin, SIZE, SIZE)
    assert white.crop(bottom_row).tobytes() != black.crop(bottom_row).tobytes()


def test_same_position_gives_identical_bytes():
    first = render_chess_board(board_after("e4", "c5"))
    assert render_chess_board(board_after("e4", "c5")) == first


def test_different_positions_give_different_images():
    assert render_chess_board(board_after("e4")) != render_chess_board(board_after("d4"))


@pytest.mark.parametrize("size", [10, 95, 5000])
def test_unreasonable_sizes_are_rejected(size):
    with pytest.raises(ValueError):
        render_chess_board(chess.Board(), size=size)


def test_concurrent_renders_match_sequential_ones():
    games = ([], ["e4"], ["d4", "d5"], ["f3", "e5", "g4", "Qh4"])
    boards = [board_after(*moves) for moves in games]
    expected = [render_chess_board(b, size=320) for b in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda b: render_chess_board(b, size=320), boards * 6))
    assert results == expected * 6
