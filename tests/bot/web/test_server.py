"""The web server's routes through aiohttp's test client, with the private-data rules."""

from __future__ import annotations

import io
import re
import socket

import chess.pgn
from PIL import Image

from bot.services.web import WebService
from bot.web.metrics import Metrics
from bot.web.server import WebServer
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CLUB_NAME, SNEAKY, World
from tests.leaks import shown_secrets


async def _text(world: World, path: str, status: int = 200) -> str:
    response = await world.get(path)
    body = await response.text()
    assert response.status == status, (path, response.status, body[:300])
    return body


async def test_the_club_page_lists_live_and_finished_games_with_names_as_text(world: World) -> None:
    html = await _text(world, world.base)
    assert SNEAKY not in html and CLUB_NAME not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Club &lt;b&gt;Night&lt;/b&gt;" in html
    assert "Ben &amp; Co" in html
    for game_id in (world.scrabble_done, world.scrabble_live, world.chess_done, world.chess_live):
        assert f'href="{world.base}games/{game_id}"' in html
    live = html.split('id="live-h"')[1].split("</section>")[0]
    assert f"games/{world.chess_live}" in live and f"games/{world.chess_done}" not in live


async def test_the_leaderboard_shows_per_game_and_period_and_refuses_unknown_ones(
    world: World,
) -> None:
    html = await _text(world, f"{world.base}?game=chess&period=all")
    table = html.split('id="board-h"')[1].split("</section>")[0]
    assert "dave" in table and "carol" in table  # the finished game rated them
    await _text(world, f"{world.base}?game=scrabble&period=week")
    await _text(world, f"{world.base}?game=poker", 400)
    await _text(world, f"{world.base}?period=forever", 400)
    await _text(world, f"{world.base}?game=chess&game=chess", 400)


async def test_every_response_carries_the_security_headers(world: World) -> None:
    for path in (world.base, "/healthz", "/static/style.css", f"{world.base}nope", "/nowhere"):
        response = await world.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp, path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_a_live_game_shows_its_board_and_last_moves_and_never_a_rack(world: World) -> None:
    html = await _text(world, f"{world.base}games/{world.scrabble_live}")
    assert "data-live=" in html and "/static/live.js" in html
    assert re.search(r'<img src="[^"]+board\.png\?step=1" alt="[^"]+"', html)
    assert 'href="/static/' in html and "http" not in html.split("<body>")[1].split("<footer")[0]
    json_page = await (await world.get(f"{world.base}games/{world.scrabble_live}/live.json")).json()
    assert json_page["step"] == 1 and json_page["status"] == "active"
    shown = html + json_page["html"]
    assert shown_secrets(shown, world.secrets) == []  # the tests' one leak check
    for rack in world.secrets:  # nor the tiles run together anywhere in the markup
        assert rack not in shown.replace(" ", "")


async def test_a_finished_scrabble_game_replays_move_by_move(world: World) -> None:
    game = f"{world.base}games/{world.scrabble_done}"
    images = []
    for step in range(0, 5):
        html = await _text(world, f"{game}?step={step}")
        assert f"Move {step} / 4" in html
        response = await world.get(f"{game}/board.png?step={step}")
        assert response.status == 200 and response.content_type == "image/png"
        images.append(await response.read())
    assert images[0] != images[1]  # the first play is on the board at step 1
    first = Image.open(io.BytesIO(images[1]))
    assert first.width == 750
    final = await _text(world, game)
    assert 'rel="next"' not in final and 'rel="prev"' in final
    assert "Download the game record (GCG)" in final
    for secret in world.secrets[:1]:  # the tiles exchanged
        assert f"exchanged {len(secret)} tiles" in final and secret not in final.replace(" ", "")
    assert "passed" in final and "resigned" in final
    await _text(world, f"{game}?step=abc", 400)
    await _text(world, f"{game}?step=99999999999", 400)
    assert "Move 4 / 4" in await _text(world, f"{game}?step=400")  # past the end: the end


async def test_a_finished_chess_game_replays_and_downloads_its_pgn(world: World) -> None:
    game = f"{world.base}games/{world.chess_done}"
    html = await _text(world, f"{game}?step=2")
    assert "Move 2 / 4" in html and "FEN rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR" in html
    boards = {await (await world.get(f"{game}/board.png?step={s}")).read() for s in range(5)}
    assert len(boards) == 5
    response = await world.get(f"{game}/download")
    assert response.status == 200
    assert "chess-" in response.headers["Content-Disposition"]
    pgn = chess.pgn.read_game(io.StringIO(await response.text()))
    assert pgn is not None and pgn.headers["Result"] == "0-1"
    assert [m.uci() for m in pgn.mainline_moves()][-1] == "d8h4"


async def test_board_images_have_etags_and_answer_304_when_unchanged(world: World) -> None:
    url = f"{world.base}games/{world.chess_done}/board.png?step=3"
    first = await world.get(url)
    etag = first.headers["ETag"]
    assert etag.startswith('"') and "max-age=86400" in first.headers["Cache-Control"]
    again = await world.get(url, headers={"If-None-Match": etag})
    assert again.status == 304 and not await again.read()
    live = await world.get(f"{world.base}games/{world.chess_live}/board.png")
    assert live.headers["Cache-Control"] == "private, max-age=0"


async def test_a_live_game_has_no_download_and_no_replay_steps(world: World) -> None:
    html = await _text(world, f"{world.base}games/{world.chess_live}?step=0")
    assert "Move 2" not in html or "Last moves" in html
    assert 'board.png?step=2"' in html  # a live game shows its newest position
    await _text(world, f"{world.base}games/{world.chess_live}/download", 404)


async def test_unknown_rotated_or_switched_off_paths_are_404(world: World) -> None:
    await _text(world, "/c/not-a-real-club-token-at-all/", 404)
    await _text(world, "/c/x/", 404)
    await _text(world, f"{world.base}games/999999", 404)
    await _text(world, f"{world.base}games/abc", 404)
    await _text(world, f"{world.base}boggle/5", 404)
    await _text(world, f"{world.base}henyo/5", 404)
    old = world.base
    rotated = await WebService(world.ctx).set(GUILD, "Club", "rotate")
    assert rotated.path is not None and rotated.path != old
    await _text(world, old, 404)
    await _text(world, f"{old}games/{world.chess_done}/board.png", 404)
    await _text(world, rotated.path)
    off = await WebService(world.ctx).set(GUILD, "Club", "off")
    assert off.path is None
    await _text(world, rotated.path, 404)
    await _text(world, f"{rotated.path}games/{world.chess_done}", 404)


async def test_another_club_s_games_are_not_found_at_this_club_s_path(world: World) -> None:
    other = await WebService(world.ctx).set(11, "Other", "on")
    assert other.path is not None
    await _text(world, f"{other.path}games/{world.chess_done}", 404)
    await _text(world, f"{other.path}games/{world.chess_done}/board.png", 404)
    html = await _text(world, other.path)
    assert f"games/{world.chess_done}" not in html


async def test_a_huge_or_malformed_query_is_400(world: World) -> None:
    await _text(world, f"{world.base}?game={'x' * 5000}", 400)
    await _text(world, f"{world.base}?a=1&b=2&c=3&d=4&e=5", 400)
    await _text(world, f"{world.base}games/{world.chess_done}?evil=1", 400)
    await _text(world, "/healthz?x=1", 400)


async def test_healthz_says_database_and_gateway(world: World) -> None:
    response = await world.get("/healthz")
    assert response.status == 200
    assert await response.json() == {"status": "ok", "database": "ok", "gateway": "connected"}
    world.gateway[0] = False
    response = await world.get("/healthz")
    assert response.status == 503 and (await response.json())["gateway"] == "disconnected"


async def test_metrics_reports_commands_games_jobs_and_outbox(world: World) -> None:
    world.metrics.observe_command("chess move", 0.12, ok=True)
    world.metrics.observe_command("chess move", 0.3, ok=False)
    assert (await world.get(world.base)).status == 200
    response = await world.get("/metrics")
    assert response.status == 200 and response.content_type.startswith("text/plain")
    text = await response.text()
    assert 'clubbot_commands_total{command="chess move",outcome="ok"} 1.0' in text
    assert 'clubbot_command_seconds_count{command="chess move"} 2.0' in text
    assert 'clubbot_games_running{game="chess"} 1.0' in text
    assert 'clubbot_games_running{game="scrabble"} 1.0' in text
    assert re.search(r"^clubbot_jobs_due \d+\.0$", text, re.M)
    assert re.search(r"^clubbot_outbox_backlog [1-9]\d*\.0$", text, re.M)  # nothing sent here
    # Page requests are counted by route, never by the club's secret path.
    token = world.base.strip("/").split("/")[1]
    assert 'clubbot_web_requests_total{route="/c/*/",status="200"}' in text
    assert token not in text


async def test_static_files_are_served_locally_with_caching(world: World) -> None:
    for name, kind in (("style.css", "text/css"), ("live.js", "javascript")):
        response = await world.get(f"/static/{name}")
        assert response.status == 200 and kind in response.content_type
        assert "max-age" in response.headers["Cache-Control"]
    await _text(world, "/static/../bot/config.py", 404)


async def test_a_port_in_use_leaves_the_bot_running_without_its_page(world: World) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = WebServer(world.ctx, Metrics(), lambda: True, host="127.0.0.1", port=port)
        assert await server.start() is False
        assert not server.running
        await server.stop()  # nothing to stop: no error
    free = WebServer(world.ctx, Metrics(), lambda: True, host="127.0.0.1", port=0)
    assert await free.start() is True and free.running and free.port != 0
    await free.stop()
    assert not free.running


async def test_an_overlong_path_or_bad_escape_is_refused_not_served(world: World) -> None:
    response = await world.get(f"{world.base}games/{'9' * 3000}")
    assert response.status in (400, 404, 414)
    await _text(world, f"{world.base}?game=%ZZ%00", 400)


async def test_games_are_shown_by_the_club_s_number_of_their_kind(world: World) -> None:
    async with world.ctx.reader() as uow:
        numbers = {
            g: (await uow.games.get(g)).number for g in (world.chess_done, world.scrabble_done)
        }
    chess_number, scrabble_number = numbers[world.chess_done], numbers[world.scrabble_done]
    assert chess_number != world.chess_done  # the club's first chess game, after two Scrabble
    home = await _text(world, world.base)
    assert f'games/{world.chess_done}">Chess #{chess_number}</a>' in home
    assert f'games/{world.scrabble_done}">Scrabble #{scrabble_number}</a>' in home
    page = await _text(world, f"{world.base}games/{world.chess_done}")
    assert f"<h1>Chess #{chess_number}:" in page


async def test_metrics_report_the_image_cache_as_a_board_is_asked_twice(world: World) -> None:
    def lookups(text: str, result: str) -> float:
        found = re.search(
            rf'^clubbot_cache_lookups{{cache="images",result="{result}"}} (\S+)$', text, re.M
        )
        assert found is not None
        return float(found.group(1))

    before = await (await world.get("/metrics")).text()
    for _ in range(2):
        assert (await world.get(f"{world.base}games/{world.chess_done}/board.png")).status == 200
    after = await (await world.get("/metrics")).text()
    assert lookups(after, "hit") >= lookups(before, "hit") + 1
    assert re.search(r'^clubbot_cache_bytes{cache="images"} [1-9]', after, re.M)
    assert re.search(r"^clubbot_cpu_workers_rss_bytes 0\.0$", after, re.M)  # CPU_WORKERS=0
