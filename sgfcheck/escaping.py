"""Text from the input made safe to show: on a terminal, in JSON, in a spreadsheet.

Records, file names and archive member names are written by whoever made the file. Shown raw,
an ESC starts a terminal control sequence (colours, a new window title, a cleared screen), a BEL
rings, U+202E turns the rest of a line around so that ``B+3.5`` reads ``5.3+B``, and a CSV cell
that begins with ``=`` is a formula to a spreadsheet (OWASP's "CSV injection"). Here:

- :func:`visible`: one value (a name, a property value) with every control, format and line
  separator character shown as an escape (``\\x1b``, ``\\u202e``, ``\\n``);
- :func:`terminal_text`: whole rendered output, the same but keeping its own line ends;
- :func:`json_safe`: JSON text with the same characters as ``\\uXXXX``
  escapes (still the same JSON value);
- :func:`csv_cell`: a cell that a spreadsheet cannot take for a formula; numbers stay numbers;
- :func:`name_text`: a name that is not UTF-8 (a byte Python could not decode) with that byte
  escaped (``\\xff``), for outputs that must be UTF-8.
"""

from __future__ import annotations

import re

# DEL, C1 controls; the Unicode format characters that reorder or hide text (bidi embeddings,
# overrides, isolates and marks, zero-width characters); line and paragraph separators; the BOM;
# interlinear annotation controls. With the C0 controls, all of it but the line end for
# rendered output.
_FORMAT = (
    "\x7f-\x9f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\u3164\ufeff\ufff9-\ufffb\uffa0"
)
_SURROGATES = "\ud800-\udfff"
"""Where a name is not UTF-8 (``bad\\xff.sgf`` on a POSIX file system, a Latin-1 tar member),
Python holds each byte it cannot decode as a lone surrogate (U+DC80-U+DCFF: "surrogateescape"),
which no UTF-8 output can hold."""
_UNSAFE_RE = re.compile(f"[\x00-\x1f{_FORMAT}{_SURROGATES}]")
_UNSAFE_KEEP_LINES_RE = re.compile(f"[\x00-\x09\x0b-\x1f{_FORMAT}{_SURROGATES}]")
_SURROGATE_RE = re.compile(f"[{_SURROGATES}]")
_JSON_RAW_RE = re.compile(f"[{_FORMAT}]")
"""What ``json.dumps`` leaves raw: it escapes C0 controls in strings itself, and a raw one outside
a string is the document's own layout."""


def _escape(m: re.Match[str]) -> str:
    ch = m.group(0)
    code = ord(ch)
    if code < 0x100:
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}")
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # the byte a name that is not UTF-8 held
    return f"\\u{code:04x}"


def name_text(text: str) -> str:
    """``text`` as UTF-8 can hold it: each byte of a name that is not UTF-8 (held as a lone
    surrogate) written as its escape, ``bad\\xff.sgf``, the rest as it is. The same name always
    gives the same text, so a report's row still finds its file (``--resume``)."""
    if text.isascii() or not _SURROGATE_RE.search(text):
        return text
    return _SURROGATE_RE.sub(_escape, text)


def names_clean(value: object) -> object:
    """``value`` (JSON-like: dicts, lists, text) with every text passed through :func:`name_text`:
    for the rare output that holds a name that is not UTF-8."""
    if isinstance(value, str):
        return name_text(value)
    if isinstance(value, dict):
        return {names_clean(k): names_clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [names_clean(v) for v in value]
    return value


def visible(text: str) -> str:
    """``text`` with every control or format character escaped (``\\x1b``, ``\\u202e``)."""
    return _UNSAFE_RE.sub(_escape, text)


def terminal_text(text: str) -> str:
    """Rendered output for a terminal: as :func:`visible`, but its line ends (``\\n``) kept."""
    return _UNSAFE_KEEP_LINES_RE.sub(_escape, text)


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps``) with the characters of :func:`visible` that JSON leaves
    raw (DEL, C1, format characters, separators) written as ``\\uXXXX``: the same JSON value,
    safe to print, one line per object."""
    if text.isascii() and "\x7f" not in text:
        return text  # nothing to escape (most rows): skip the scan
    return _JSON_RAW_RE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "|", "%",
                  "\uff1d", "\uff0b", "\uff0d", "\uff20", "\u2212", "\ufe62", "\ufe63",
                  "\ufe66")
"""What a spreadsheet may take for the start of a formula: the ASCII prefixes, and the forms it
folds to them (fullwidth ＝ ＋ － ＠, the minus sign, the small forms ﹢ ﹣ ﹦)."""
_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def csv_cell(value: object) -> object:
    """A CSV cell safe for spreadsheets: text that starts like a formula (``=``, ``+``, ``-``,
    ``@``, tab, CR...) gets a leading ``'``, as OWASP advises; numbers (``-3.5`` too), booleans
    and empty cells are left as they are. Control characters are escaped."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = visible(str(value))
    if text.startswith(_FORMULA_START) and not _NUMBER_RE.match(text):
        return "'" + text
    return text

