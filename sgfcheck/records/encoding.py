"""Text encoding of SGF files: which one, and turning the file into UTF-8 before parsing.

Policy, first match wins: an explicit override; a byte-order mark; the CA property if it decodes
cleanly; UTF-8 if the bytes are valid UTF-8; charset-normalizer's guess; Latin-1.

The whole file is decoded *before* tokenising and handed to sgfmill as UTF-8. In Shift_JIS, GBK or
Big5 the second byte of a character can be the byte of ``]`` or ``\\``; tokenising the raw bytes
would cut such a value in two. UTF-8 never puts ASCII bytes inside a multibyte character.
"""

from __future__ import annotations

import codecs
import re
import warnings
from dataclasses import dataclass, field

from sgfcheck import findings as F
from sgfcheck.findings import Finding

# CA spellings seen in the wild -> the Python codec that reads them. Legacy CJK charsets map to
# their common supersets: files labelled GB2312 routinely hold GBK characters, and so on.
_CA_ALIASES = {
    "utf8": "utf-8",
    "utf-8": "utf-8",
    "utf16": "utf-16",
    "utf-16": "utf-16",
    "utf16le": "utf-16-le",
    "utf-16le": "utf-16-le",
    "utf16be": "utf-16-be",
    "utf-16be": "utf-16-be",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "cp936": "gb18030",
    "euc-cn": "gb18030",
    "big5": "big5hkscs",
    "big-5": "big5hkscs",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "ms_kanji": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "euc-kr": "cp949",
    "euckr": "cp949",
    "ks_c_5601-1987": "cp949",
    "uhc": "cp949",
}

_CA_RE = re.compile(rb"(?<![A-Za-z])CA\s*\[([^\]]{0,64})\]")
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass
class DecodedText:
    """A file's bytes as UTF-8, with how they were read."""

    data: bytes
    encoding: str
    declared: str | None
    guessed: bool
    findings: list[Finding] = field(default_factory=list)


# SGF's own characters: a codec a record can be written in reads these bytes as themselves.
_SGF_ASCII = (b"(;GM[1]FF[4]CA[x]C[a\\]b \\x5d \\u0041 a.xn--ls8h.b +-:~]"
              b"PB[Honinbo Shusaku 0123456789])\n")


def codec_for(name: str) -> str | None:
    """The Python codec for a CA value, or None when there is none a record can be written in:
    unknown names, names with NUL, codecs that are not text encodings (``base64``, ``zlib``,
    ``rot13``, ``undefined``), and codecs that do not read SGF's ASCII as ASCII (``utf-7``,
    ``punycode``, ``unicode_escape``; UTF-16 and UTF-32 are found by their byte-order mark or
    NUL bytes, not by CA)."""
    key = name.strip().lower()
    if key in _CA_ALIASES:
        return _CA_ALIASES[key]
    try:
        info = codecs.lookup(key)
        # Python marks its bytes-to-bytes and str-to-str codecs; decoding tells the rest.
        if not getattr(info, "_is_text_encoding", True):
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unicode_escape warns of unknown escapes
            if _SGF_ASCII.decode(info.name) != _SGF_ASCII.decode("ascii"):
                return None
    except Exception:  # noqa: BLE001 - a codec named by the file may fail in any way
        return None
    return info.name


def _looks_wide(raw: bytes) -> str | None:
    """UTF-32 or UTF-16 without a BOM: ASCII text then has three NULs in every four bytes, or
    one in every two."""
    head = raw[:400]
    if len(head) < 8 or _narrow_start(head):
        return None
    quarter = len(head) // 4
    lanes = [head[i::4].count(0) for i in range(4)]
    if lanes[1] + lanes[2] + lanes[3] > 2.7 * quarter and lanes[0] < 0.05 * quarter:
        return "utf-32-le"
    if lanes[0] + lanes[1] + lanes[2] > 2.7 * quarter and lanes[3] < 0.05 * quarter:
        return "utf-32-be"
    even_nuls = head[0::2].count(0)
    odd_nuls = head[1::2].count(0)
    half = len(head) // 2
    if odd_nuls > 0.4 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.4 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    return None


def _narrow_start(head: bytes) -> bool:
    """The record starts as a game does in one byte a character (``(`` then no NUL): what NULs
    come later are the content's (a UTF-16 comment pasted into a UTF-8 collection), not its
    encoding's."""
    start = head.lstrip(b" \t\r\n")
    return len(start) >= 2 and start[0] == 0x28 and start[1] != 0


def _detect(raw: bytes) -> str | None:
    # Imported here: charset-normalizer takes longer to import than most files take to check,
    # and only files in no declared or valid encoding need it.
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best()
    return best.encoding if best is not None else None


def _declared(raw: bytes) -> list[str]:
    """Every CA value of the file, in order (as ``_CA_RE.finditer``, but the regular expression
    is tried only where ``CA`` occurs instead of at every byte)."""
    out = []
    at = raw.find(b"CA")
    while at >= 0:
        m = _CA_RE.match(raw, at)
        if m is None:
            at = raw.find(b"CA", at + 1)
        else:
            out.append(m.group(1).decode("ascii", "replace").strip())
            at = raw.find(b"CA", m.end())
    return out


def decode_sgf_bytes(raw: bytes, override: str | None = None) -> DecodedText:
    """Decode an SGF file to UTF-8 bytes, choosing the encoding by the policy above."""
    found: list[Finding] = []
    declared_values = _declared(raw)
    declared = declared_values[0] if declared_values else None
    distinct = {codec_for(v) or v.lower() for v in declared_values}
    if len(distinct) > 1:
        found.append(
            Finding(
                F.SGF_ENCODING_CONFLICT,
                f"the file declares several encodings (CA {', '.join(declared_values)}); "
                f"the whole file was read as the first that fits",
            )
        )

    if override:
        codec = codec_for(override)
        if codec is None:
            raise ValueError(f"unknown encoding {override!r}")
        return _finish(raw, codec, declared, False, found, "--encoding")

    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return _finish(raw, codec, declared, False, found, "byte-order mark")
    wide = _looks_wide(raw)
    if wide:
        return _finish(raw, wide, declared, True, found, "NUL-byte pattern")

    if declared is not None:
        codec = codec_for(declared)
        if codec is None:
            found.append(
                Finding(
                    F.SGF_ENCODING_UNKNOWN,
                    f"CA[{declared}] names no known encoding; the encoding was detected instead",
                )
            )
        else:
            try:
                text = raw.decode(codec)
            except UnicodeError as exc:
                found.append(
                    Finding(
                        F.SGF_ENCODING_ERRORS,
                        f"the text is not valid {declared} "
                        f"(byte {getattr(exc, 'start', '?')}); "
                        f"the encoding was detected instead",
                    )
                )
            else:
                data = raw if codec == "utf-8" else text.encode("utf-8")
                return DecodedText(data, codec, declared, False, found)

    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        is_ascii = raw.isascii()
        # No CA and plain ASCII: nothing to guess. No CA and UTF-8: a guess, but a safe one.
        guessed = declared is None and not is_ascii
        if guessed:
            found.append(
                Finding(F.SGF_ENCODING_GUESSED, "no CA property; the text is valid UTF-8")
            )
        return DecodedText(raw, "ascii" if is_ascii else "utf-8", declared, guessed, found)

    # Mostly UTF-8 with a few damaged characters (Fox replaces bytes of names with '?'):
    # UTF-8 with replacements beats a detector's guess at a single-byte charset.
    replaced = _mostly_utf8(raw)
    if replaced is not None:
        found.append(Finding(F.SGF_ENCODING_GUESSED,
                             "no CA property; the text is UTF-8 but for a few damaged characters"
                             if declared is None else
                             "the text is UTF-8 but for a few damaged characters"))
        found.append(Finding(
            F.SGF_ENCODING_ERRORS,
            f"{replaced} byte(s) are not part of any UTF-8 character (a character cut short, "
            "as servers do when they replace bytes with '?'); shown as U+FFFD"))
        text = raw.decode("utf-8", errors="replace")
        return DecodedText(text.encode("utf-8"), "utf-8", declared, True, found)
    codec = _detect(raw) or "latin-1"
    return _finish(raw, codec, declared, True, found, "detection")


MOSTLY_UTF8 = 0.5
"""Share of a file's non-ASCII bytes that must form valid UTF-8 characters for the file to be
read as UTF-8 with a few damaged ones. Measured on the shared corpus: Fox records whose names lost
bytes keep 0.6 to 1.0 of them valid; records in GB2312, Shift_JIS or EUC-KR (whose byte pairs
form a UTF-8 character now and then by chance) 0.0 to 0.38."""


def _mostly_utf8(raw: bytes) -> int | None:
    """How many bytes are not UTF-8 in a file that is UTF-8 but for those, or None when too
    few of its non-ASCII bytes form UTF-8 characters for it to be UTF-8 at all."""
    text = raw.decode("utf-8", errors="replace")
    high = len(raw) - len(raw.translate(None, bytes(range(128, 256))))
    bad = text.count("\ufffd")
    valid = len(text.encode("utf-8")) - len(text.encode("ascii", "ignore")) - 3 * bad
    if not valid or valid < MOSTLY_UTF8 * high:
        return None
    return high - valid


def _finish(
    raw: bytes, codec: str, declared: str | None, guessed: bool, found: list[Finding], how: str
) -> DecodedText:
    text = raw.decode(codec, errors="replace")
    bad = text.count("\ufffd")
    if guessed:
        found.append(Finding(F.SGF_ENCODING_GUESSED, f"text read as {codec} (by {how})"))
    if bad:
        found.append(
            Finding(
                F.SGF_ENCODING_ERRORS,
                f"{bad} byte sequence(s) are not valid {codec}; shown as U+FFFD",
            )
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    return DecodedText(text.encode("utf-8"), codec, declared, guessed, found)
