"""Text that comes from the data or the user (dataset, feature, label and file names, error
messages) inside the Markdown that Streamlit renders, shown exactly as written."""

#: The ASCII punctuation that Markdown or Streamlit's additions to it give a meaning: emphasis,
#: code, links, HTML and entities, lists and headings, tables, strikethrough, formulas ($),
#: directives (:red[...], :material/icon:, which an escaped slash breaks) and arrows (->). The
#: rest (, { } ' " % ; ? @ ^) is left as it is, so that the Markdown stays legible. Streamlit
#: still draws an escaped <= as ≤, ~= as ≈ and <-> as ↔: the same meaning.
SPECIAL = frozenset("\\`*_[]()#+-.!|~<>$:&=/")


def literal(text) -> str:
    """``text`` as Markdown that shows it as written: each `SPECIAL` character
    backslash-escaped, as CommonMark allows for any ASCII punctuation ("Backslash escapes",
    https://spec.commonmark.org/0.31.2/#backslash-escapes). Unescaped, CAL500's label
    ``Genre--_Alternative`` loses its underscore and turns the labels after it italic, a ``$``
    starts a formula and ``:red[...]`` colours text."""
    return "".join("\\" + c if c in SPECIAL else c for c in str(text))
