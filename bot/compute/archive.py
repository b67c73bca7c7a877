"""A club's export archive, compressed in a worker process (``/club export``)."""

from __future__ import annotations

import io
import zipfile


def zip_archive(files: list[tuple[str, str]]) -> bytes:
    """A ZIP (deflated) of ``(name, text)`` files, in order, the text as UTF-8."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, text)
    return buffer.getvalue()
