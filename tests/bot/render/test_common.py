import pytest
from PIL import Image

from bot.render._common import (
    ELLIPSIS,
    FONT_DIR,
    build_palette,
    clean_text,
    encode_png,
    fit_text,
    font,
    text_width,
)
from tests.bot.render.pixels import decode


def test_dejavu_fonts_and_their_licence_ship_with_the_package():
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (FONT_DIR / name).is_file()
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()


def test_font_covers_accents_chess_glyphs_and_arrows():
    face = font(20)
    missing_glyph_box = bytes(face.getmask("\U0010ffff"))  # what a glyph the font lacks looks like
    for ch in "ñéü♔♚★▲▼…":
        mask = face.getmask(ch)
        assert mask.getbbox() is not None, ch
        assert bytes(mask) != missing_glyph_box, ch


def test_fit_text_keeps_short_text_whole():
    assert fit_text("Ana", font(20), 500) == "Ana"


def test_fit_text_cuts_long_text_with_an_ellipsis_within_the_width():
    face = font(20)
    cut = fit_text("Maximiliano Bartolomé " * 10, face, 200)
    assert cut.endswith(ELLIPSIS)
    assert text_width(cut, face) <= 200
    assert cut.startswith("Maximiliano")


def test_fit_text_with_no_room_returns_at_most_an_ellipsis():
    assert fit_text("Anything", font(20), 1) == ""


def test_clean_text_composes_accents_and_flattens_control_characters():
    assert clean_text("Nin\u0303o") == "Niño"
    assert clean_text("a\nb\tc") == "a b c"
    assert clean_text("x\u200dy\x00\ud800z") == "xyz"


def test_palette_keeps_exact_colours_exact_beside_near_neighbours():
    exact = [(240, 217, 181), (176, 129, 91)]
    sample = Image.new("RGB", (64, 64), (240, 217, 181))
    # A near neighbour in the sample must not steal the exact colour's pixels.
    sample.paste((241, 218, 182), (0, 0, 32, 64))
    sample.paste((176, 129, 91), (0, 0, 10, 10))
    palette = build_palette([sample], exact)
    image = Image.new("RGB", (2, 1), (240, 217, 181))
    image.putpixel((1, 0), (176, 129, 91))
    decoded = decode(encode_png(image, palette))
    assert decoded.getpixel((0, 0)) == (240, 217, 181)
    assert decoded.getpixel((1, 0)) == (176, 129, 91)


def test_palette_rejects_exact_colours_it_cannot_keep_apart():
    with pytest.raises(ValueError):
        build_palette([Image.new("RGB", (4, 4))], [(10, 10, 10), (12, 12, 12)])


def test_rgb_images_need_a_palette_to_be_encoded():
    with pytest.raises(ValueError):
        encode_png(Image.new("RGB", (4, 4)))
