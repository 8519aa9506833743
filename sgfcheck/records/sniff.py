"""Is it a game record at all? Binary content and prose are told apart from SGF before anything
is parsed, so that a picture or a README given by name is refused in one line, not read as a
collection of damaged games.

- Binary: the signature of a common binary format (PNG, JPEG, GIF, PDF, ZIP, gzip, ELF...), or
  NUL and other control bytes in more than one byte in fifty and more than sixteen in all (a
  stray one in a damaged record is the syntax's business; a UTF-16 or UTF-32 record, with its
  byte-order mark or its NUL pattern, is text).
- Prose: once every property (``ID[value]``) and the tree's own punctuation are taken away, what
  is left of an SGF record is little (a few words before the first game at most); of a README or
  a letter it is most of the file. A file that starts as a game does (``(`` or ``;``) is not
  weighed so: that costs half a millisecond a file, as much as parsing it. Prose followed by
  games (a description before a collection) is not prose: what follows the first ``(;`` is
  weighed again, and where it is a record the reading skips the text before it.
"""

from __future__ import annotations

import re

_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (give it as .zip to read the records inside)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\x7fELF", "a program (ELF)"),
    (b"RIFF", "a RIFF file (audio or video)"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
"""NUL and the control bytes text does not hold (tab, line ends, form feed and ESC it may)."""
_BRACKET = re.compile(rb"\\.|[\[\]]", re.S)
_IDENT = re.compile(rb"[A-Za-z]*\s*\Z")
_STRUCTURE = re.compile(rb"[\s;()]+")

CONTROL_LEAST = 16
"""Control bytes a file may hold however short it is (a record whose names carry a few escape
sequences is a hostile record to report safely, not binary data)."""
PROSE_SHARE = 0.5
"""More than this share of a file's visible characters outside every property: prose."""
PROSE_LEAST = 200
"""...and more than this many of them (a short note before a real game is not prose)."""
SAMPLE = 1 << 20
"""Bytes looked at (the first mebibyte)."""


def not_a_record(raw: bytes) -> str | None:
    """Why these bytes are not a game record (``binary content (a PNG image)``, ``prose (...)``),
    or None when they may be one."""
    head = raw[:SAMPLE]
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            return f"binary content ({what})"
    if head.startswith(_TEXT_BOMS) or _wide_text(head):
        return None
    if head.lstrip(b" \t\r\n").startswith(b"(;"):
        # It starts as a game does: whatever follows is the syntax's business (values in
        # several encodings, a UTF-16 comment among them, hold NULs a record may carry).
        return None
    controls = len(head) - len(head.translate(None, _CONTROL))  # one pass, not one per byte
    if controls > max(CONTROL_LEAST, len(head) // 50):
        return "binary content (control bytes that no text holds)"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith((b"(", b";")):
        return None  # it starts as a game does: whatever follows is the syntax's business
    if _prose(head):
        game = _GAME_START.search(head)
        if game is None or _prose(head[game.start():]):
            left = _STRUCTURE.sub(b"", _outside_properties(head))
            visible = len(_STRUCTURE.sub(b"", head))
            return f"prose ({len(left)} of its {visible} characters stand outside any property)"
        # Text before a game (a description, a mail's header): the reading skips it (SGF006).
    return None


_GAME_START = re.compile(rb"\(\s*;")


def _prose(text: bytes) -> bool:
    """Most of the text, and more than :data:`PROSE_LEAST` characters, outside every
    property."""
    left = _STRUCTURE.sub(b"", _outside_properties(text))
    visible = len(_STRUCTURE.sub(b"", text))
    return len(left) > PROSE_LEAST and len(left) > PROSE_SHARE * visible


def _outside_properties(head: bytes) -> bytes:
    """The text outside every property: values (``[...]``, escapes honoured) and the identifier
    before each taken away. One pass over the brackets, so a value that never closes costs no
    more than one that does."""
    pieces: list[bytes] = []
    start, inside = 0, False
    for m in _BRACKET.finditer(head):
        token = m.group()
        if not inside and token == b"[":
            piece = head[start:m.start()]
            ident = _IDENT.search(piece[-64:])
            pieces.append(piece[:len(piece) - (len(ident.group()) if ident else 0)])
            inside = True
        elif inside and token == b"]":
            start, inside = m.end(), False
    if not inside:
        pieces.append(head[start:])
    return b"".join(pieces)


def _wide_text(head: bytes) -> bool:
    """UTF-16 or UTF-32 text without a byte-order mark: a NUL beside every ASCII byte."""
    sample = head[:400]
    start = sample.lstrip(b" \t\r\n")
    if len(sample) < 8 or (len(start) >= 2 and start[0] == 0x28 and start[1] != 0):
        return False  # "(" then no NUL: a record in one byte a character
    even, odd = sample[0::2], sample[1::2]
    return even.count(0) > 0.4 * len(even) or odd.count(0) > 0.4 * len(odd)
