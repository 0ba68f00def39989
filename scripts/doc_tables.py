# SPDX-License-Identifier: Apache-2.0
"""Shared by the scripts that regenerate tables inside hand-written docs pages: a generated region
sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->` and is replaced whole."""
import re


def fill(text, name, content):
    """Returns `text` with the region NAME replaced by `content`; raises if the markers are missing."""
    pattern = rf"<!-- {re.escape(name)}:begin -->.*<!-- {re.escape(name)}:end -->"
    if not re.search(pattern, text, flags=re.S):
        raise ValueError(f"no <!-- {name}:begin/end --> region in the page")
    return re.sub(pattern, lambda _: f"<!-- {name}:begin -->\n{content}\n<!-- {name}:end -->", text, flags=re.S)


def fill_file(path, regions):
    """Fills every (name, content) of `regions` in the file at `path`."""
    text = open(path).read()
    for name, content in regions:
        text = fill(text, name, content)
    open(path, "w").write(text)
