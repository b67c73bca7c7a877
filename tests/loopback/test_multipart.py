"""The loopback reads a multipart body (a message with files) without aiohttp's
multipart reader, whose ``read_chunk`` calls the deprecated ``unread_data()`` when
the body arrives in pieces of a certain shape (a DeprecationWarning in test runs,
an error once aiohttp removes it)."""

from __future__ import annotations

import asyncio
import json
import warnings

import aiohttp
from aiohttp import StreamReader
from aiohttp.test_utils import make_mocked_request

from .rest import _multipart_parts, _parse

BOUNDARY = "8f3a2b9c1d7e4f6a5b0c3d2e1f9a8b7c"


def _body(image: bytes) -> bytes:
    lines = [
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="payload_json"\r\n'
        "Content-Type: application/json\r\n\r\n" + json.dumps({"content": "the board"}) + "\r\n",
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="files[0]"; filename="board.png"\r\n'
        "Content-Type: image/png\r\n\r\n",
    ]
    return "".join(lines).encode() + image + f"\r\n--{BOUNDARY}--\r\n".encode()


async def test_a_file_arriving_in_pieces_is_read_whole_without_a_deprecated_call() -> None:
    image = bytes(range(256)) * 80  # 20 kB, more than one 8 kB chunk
    body = _body(image)
    start = body.index(b"image/png\r\n\r\n") + len(b"image/png\r\n\r\n")
    # Pieces as a slow connection gives them: the file's first bytes, then fewer bytes
    # than the boundary is long, then the rest at once.
    pieces = [body[: start + 100], body[start + 100 : start + 110], body[start + 110 :]]
    protocol = make_mocked_request("POST", "/").protocol
    stream = StreamReader(protocol, 2**16, loop=asyncio.get_running_loop())
    request = make_mocked_request(
        "POST",
        "/api/v10/channels/1/messages",
        headers={
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
            "Content-Length": str(len(body)),
        },
        payload=stream,
    )

    async def arrive() -> None:
        for piece in pieces:
            stream.feed_data(piece)
            for _ in range(20):  # the reader takes what is there and waits again
                await asyncio.sleep(0)
        stream.feed_eof()

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        feeding = asyncio.create_task(arrive())
        parsed = await _parse(request, "POST", "/channels/1/messages")
        await feeding
    assert parsed.body == {"content": "the board"}
    assert parsed.uploads == {0: ("board.png", image, None)}


async def test_parts_are_cut_at_the_boundary_with_their_names_and_unicode_file_names() -> None:
    """aiohttp's form (discord.py's, quote_fields off) writes a file name as raw UTF-8; a
    part's bytes may hold CR LF and dashes; the epilogue after the closing boundary is
    not a part."""
    image = b"\x89PNG\r\n\x1a\n--" + bytes(range(256)) * 4 + b"\r\n-- not the boundary\r\n"
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "año"}), content_type="application/json")
    form.add_field("files[0]", image, filename="tablero del año.png", content_type="image/png")
    form.add_field("files[1]", b"", filename="empty.txt")
    writer = form()
    sink = _Sink()
    await writer.write(sink)
    body = bytes(sink.data) + b"epilogue\r\n"
    request = make_mocked_request(
        "POST", "/api/v10/channels/1/messages", headers={"Content-Type": writer.content_type}
    )

    parts = _multipart_parts(request, body)

    assert parts == [
        ("payload_json", None, json.dumps({"content": "año"}).encode()),
        ("files[0]", "tablero del año.png", image),
        ("files[1]", "empty.txt", b""),
    ]


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk
